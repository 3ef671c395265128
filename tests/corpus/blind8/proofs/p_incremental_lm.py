import torch
import torch.nn.functional as F
from common import *

N = "incremental_lm"
caus = causal_effect(N, vocab=(0, 40))
m, a, _ = build(N)
ids = a[0]
out = m(ids)
# reference: full parallel pass with SDPA(is_causal=True) using the same weights
x = m.tok(ids) + m.pos(torch.arange(ids.size(1)))
for blk in m.blocks:
    at = blk.attn
    h = blk.ln1(x)
    B, T, D = h.shape
    q = at.q(h).view(B, T, at.h, at.dh).transpose(1, 2)
    k, v = at.kv(h).view(B, T, 2, at.h, at.dh).permute(2, 0, 3, 1, 4)
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, D)
    x = x + at.o(y)
    x = x + blk.mlp(blk.ln2(x))
ref = m.head(m.ln(x))
refd = md(out, ref)
report(N, max(caus, refd) < 1e-5, causal_effect=caus, ref_full_causal_pass=refd)
