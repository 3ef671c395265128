import math, torch, torch.nn.functional as F
from lib import *
N = "r22_gpt_poem"
FIX = [("att = (q @ k.transpose(-2, -1)) * (1.0 / k.size(-1))", "att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))")]
tw, twr = twin_diff(N, FIX)
c = causal_probe(N, vocab=64)
m, a, kw = build(N)
attn = m.transformer.h[0].attn
x = torch.randn(2, 10, 32) * 3
with torch.no_grad():
    y = attn(x)
    q, k, v = attn.c_attn(x).split(32, dim=2)
    f = lambda t: t.view(2, 10, 4, 8).transpose(1, 2)
    r = attn.c_proj(F.scaled_dot_product_attention(f(q), f(k), f(v), is_causal=True).transpose(1, 2).reshape(2, 10, 32))
ref = maxdiff(y, r)
assert ref > 1e-2 and c < 1e-6
report(name=N, verdict="buggy", harm="numeric", fix=FIX, sdpa_ref_diff=ref, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c,
       note="scores divided by head_dim (8) instead of sqrt(head_dim): logits 2.8x too flat")
