import torch, torch.nn.functional as F
from lib import *
N = "r53_keymajor_lm"
c = causal_probe(N, vocab=64)
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
att = m.blocks[0].attn
x = torch.randn(2, 11, 32)
with torch.no_grad():
    f = lambda t: t.view(2, 11, 4, 8).transpose(1, 2)
    r = att.proj(F.scaled_dot_product_attention(f(att.to_q(x)), f(att.to_k(x)), f(att.to_v(x)), is_causal=True).transpose(1, 2).reshape(2, 11, 32))
    ref = maxdiff(att(x), r)
assert max(c, det, b, ref) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b, sdpa_ref_diff=ref,
       note="scores stored key-major (B,H,Tk,Tq); softmax(dim=-2) is over keys and the triu mask is the transposed causal mask")
