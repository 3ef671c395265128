import torch
import torch.nn.functional as F
from _util import *
N = "c17_linear_attn_causal"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6, 8], None).items():
    R.inv(f"logits <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
g = torch.Generator().manual_seed(0)
q, k, v = (torch.randn(2, 4, 10, 8, generator=g) for _ in range(3))
fq, fk = F.elu(q) + 1, F.elu(k) + 1
A = (fq @ fk.transpose(-2, -1)).tril()
ref = (A @ v) / (A.sum(-1, keepdim=True) + 1e-6)
R.inv("cumsum form == masked quadratic linear attention", md(mod.causal_linear_attention(q, k, v), ref), 1e-5)
R.done()
