import torch
from _util import *
N = "c18_mamba_mixer"
R = Report(N, "bug")
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6, 8], None).items():
    R.harm(f"logits <= {t} move when tokens > {t} change", v)
m, a, _ = fresh(N)
conv = m.layers[0][1].conv1d
x = torch.zeros(1, conv.in_channels, 10); x[..., 6] = 1.0
with torch.no_grad():
    y = conv(x) - conv(torch.zeros_like(x))
R.harm("impulse at t=6 reaches conv output at t<6 (max)", y[..., :6].abs().max().item())
R.done()
