import torch
from _util import *
N = "c21_sliding_window_sinks"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 1, 2, 5, 9], None).items():
    R.inv(f"logits <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
bias = mod.build_attention_bias(12, 4, 2)
vis = bias == 0
ref = torch.zeros(12, 12, dtype=torch.bool)
for i in range(12):
    for j in range(12):
        ref[i, j] = j <= i and (i - j < 4 or j < 2)
R.inv("visibility == loop reference (mismatches)", float((vis != ref).sum()), 0.0)
# single layer: token 3 is outside the window of query 11 and not a sink
m, a, _ = fresh(N)
attn = m.blocks[0][1]
x = torch.randn(2, 12, 32)
with torch.no_grad():
    y0 = attn(x)
    x2 = x.clone(); x2[:, 3] = torch.randn(2, 32) * 5
    y1 = attn(x2)
R.inv("one attention layer: query 11 ignores token 3 (outside window, not sink)", md(y0[:, 11], y1[:, 11]), 0.0)
with torch.no_grad():
    x3 = x.clone(); x3[:, 1] = torch.randn(2, 32) * 5
    y3 = attn(x3)
R.harm("sanity: query 11 does read sink token 1", md(y0[:, 11], y3[:, 11]))
R.done()
