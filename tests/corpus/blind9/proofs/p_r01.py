import torch, torch.nn.functional as F
from lib import *

N = "r01_gpt_lm"
c = causal_probe(N, vocab=64)
det = determinism(N)
m, a, kw = build(N)
attn = m.transformer.h[0].attn
x = torch.randn(2, 10, 32)
with torch.no_grad():
    y = attn(x)
    q, k, v = attn.c_attn(x).split(32, dim=2)
    f = lambda t: t.view(2, 10, 4, 8).transpose(1, 2)
    r = F.scaled_dot_product_attention(f(q), f(k), f(v), is_causal=True)
    r = attn.c_proj(r.transpose(1, 2).reshape(2, 10, 32))
ref = maxdiff(y, r)
assert c < 1e-5 and det == 0 and ref < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, sdpa_ref_diff=ref)
