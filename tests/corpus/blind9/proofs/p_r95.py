import torch, torch.nn.functional as F
from lib import *
N = "r95_speech_seq2seq"
c = causal_probe(N, vocab=60)
b = batch_probe(N)
det = determinism(N)
m, a, kw = build(N)
mha = m.decoder.blocks[0].attn
x = torch.randn(2, 9, 32)
with torch.no_grad():
    y = mha(x, mask=m.decoder.mask)[0]
    f = lambda t: t.view(2, -1, 4, 8).transpose(1, 2)
    r = mha.out(F.scaled_dot_product_attention(f(mha.query(x)), f(mha.key(x)), f(mha.value(x)), is_causal=True).transpose(1, 2).reshape(2, 9, 32))
    xa = torch.randn(2, 12, 32)
    ca = m.decoder.blocks[0].cross_attn
    y2 = ca(x, xa)[0]
    r2 = ca.out(F.scaled_dot_product_attention(f(ca.query(x)), f(ca.key(xa)), f(ca.value(xa))).transpose(1, 2).reshape(2, 9, 32))
ref = max(maxdiff(y, r), maxdiff(y2, r2))
assert max(c, b, det, ref) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, batch_diff=b, eval_repeat_diff=det, sdpa_ref_diff=ref,
       note="d^-0.25 applied to both q and k gives the usual 1/sqrt(d)")
