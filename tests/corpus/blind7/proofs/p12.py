import torch
import torch.nn.functional as F
from _util import *
N = "c12_moe_top2"
R = Report(N, "correct")
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
R.inv("batch: sample 2 after changing sample 1", batch_probe(N, [0], 1, 2))
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6], None).items():
    R.inv(f"outputs <= {t} unchanged when tokens > {t} change", v)
m, a, _ = fresh(N)
moe = m.moe
h = torch.randn(3, 8, 32)
with torch.no_grad():
    y, _ = moe(h)
    flat = h.reshape(-1, 32)
    p = moe.gate(flat).softmax(-1)
    dense = torch.stack([e(flat) for e in moe.experts], 1)
    top = p.topk(2, -1)
    w = torch.zeros_like(p).scatter(1, top.indices, top.values)
    w = w / w.sum(-1, keepdim=True)
    ref = (w[..., None] * dense).sum(1).reshape(3, 8, 32)
R.inv("MoE matches dense top-2 reference", md(y, ref), 1e-6)
h2 = h.clone(); h2[:, 5] = torch.randn(3, 32)
with torch.no_grad():
    y2, _ = moe(h2)
R.inv("MoE is per token: other tokens unchanged when token 5 changes", md(torch.cat([y[:, :5], y[:, 6:]], 1), torch.cat([y2[:, :5], y2[:, 6:]], 1)), 1e-6)
R.done()
