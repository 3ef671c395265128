import torch
from _util import *
N = "c23_qknorm_decoder"
R = Report(N, "bug")
for t, v in causal_probe(N, 0, 1, 1, [1, 3, 6, 8], None).items():
    R.harm(f"logits <= {t} move when tokens > {t} change", v)
mod = load(N)
q = torch.randn(2, 4, 10, 8)
w = torch.ones(8)
ref = q * torch.rsqrt(q.pow(2).mean(-1, keepdim=True) + 1e-6)
r0 = causal_probe(N, 0, 1, 1, [0], None)[0]
print("note: t=0 attends only to itself, so the leak cannot show there (diff %.1e)" % r0)
R.harm("rms_norm differs from per-head-vector RMSNorm", md(mod.rms_norm(q, w), ref))
R.done()
