import torch
from _util import *
N = "c19_selective_scan_block"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6, 10], None).items():
    R.inv(f"outputs <= {t} unchanged when steps > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
# closed-form reference of the scan: h_t = sum_{s<=t} prod_{s<r<=t} dA_r * dBu_s
g = torch.Generator().manual_seed(0)
b, T, di, n = 2, 12, 6, 4
u = torch.randn(b, T, di, generator=g, dtype=torch.float64)
delta = torch.rand(b, T, di, generator=g, dtype=torch.float64) * 0.5
A = -torch.rand(di, n, generator=g, dtype=torch.float64) * 2
Bm = torch.randn(b, T, n, generator=g, dtype=torch.float64)
Cm = torch.randn(b, T, n, generator=g, dtype=torch.float64)
D = torch.randn(di, generator=g, dtype=torch.float64)
y = mod.selective_scan(u, delta, A, Bm, Cm, D)
logA = delta.unsqueeze(-1) * A
cum = logA.cumsum(1)
dBu = delta.unsqueeze(-1) * Bm.unsqueeze(2) * u.unsqueeze(-1)
ref = torch.zeros_like(y)
for t in range(T):
    h = sum(torch.exp(cum[:, t] - cum[:, s]) * dBu[:, s] for s in range(t + 1))
    ref[:, t] = (h * Cm[:, t].unsqueeze(1)).sum(-1)
ref = ref + u * D
R.inv("sequential scan == closed-form reference (float64)", md(y, ref), 1e-9)
m, a, _ = fresh(N)
conv = m[0].conv1d
x = torch.zeros(1, conv.in_channels, 12); x[..., 6] = 1.0
with torch.no_grad():
    yy = conv(x)[..., :12] - conv(torch.zeros_like(x))[..., :12]
R.inv("impulse at t=6 does not reach conv output at t<6", yy[..., :6].abs().max().item(), 0.0)
R.done()
