import torch
import torch.nn.functional as F
from common import *

N = "fast_lm"
caus = causal_effect(N, vocab=(0, 40))
m, _, _ = build(N)
at = m.attn[0]
x = torch.randn(2, 8, 32)
q, k, v = at.qkv(x).view(2, 8, 3, 4, 8).unbind(2)
q, k = F.elu(q) + 1, F.elu(k) + 1
s = torch.einsum("bihd,bjhd->bhij", q, k) * torch.ones(8, 8).tril()
ref = torch.einsum("bhij,bjhd->bihd", s / (s.sum(-1, keepdim=True) + at.eps), v).reshape(2, 8, 32)
ref = at.out(ref)
refd = md(at(x), ref)
report(N, max(caus, refd) < 1e-5, causal_effect=caus, ref_quadratic_masked=refd)
