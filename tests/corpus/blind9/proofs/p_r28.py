import math, torch, torch.nn.functional as F
from lib import *
N = "r28_char_transformer"
c = causal_probe(N, vocab=48)
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
att = m.blocks[0].attn
x = torch.randn(2, 10, 32)
with torch.no_grad():
    f = lambda lin: lin(x).view(2, 10, 4, 8).transpose(1, 2)
    r = F.scaled_dot_product_attention(f(att.query), f(att.key), f(att.value), is_causal=True)
    r = att.proj(r.transpose(1, 2).reshape(2, 10, 32))
    ref = maxdiff(att(x), r)
assert max(c, det, b, ref) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b, sdpa_ref_diff=ref)
