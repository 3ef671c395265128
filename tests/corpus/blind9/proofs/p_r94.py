import torch
from lib import *
N = "r94_xformer_decoder"
c = causal_probe(N, vocab=64)
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
at = m.layers[0][0]
x = torch.randn(2, 12, 32)
with torch.no_grad():
    h = at.norm(x)
    q = at.to_q(h); k, v = at.to_kv(h).chunk(2, -1)
    outs = []
    for hh in range(4):
        sl = slice(16 * hh, 16 * hh + 16)
        s = q[..., sl] @ k[..., sl].transpose(1, 2) / 4.0
        s = s.masked_fill(torch.ones(12, 12).triu(1).bool(), float("-inf"))
        outs.append(s.softmax(-1) @ v[..., sl])
    ref = maxdiff(at(x), at.to_out(torch.cat(outs, -1)))
assert max(c, det, b, ref) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b, loop_ref_diff=ref,
       note="inner_dim = heads*dim_head = 64 != dim; scale uses dim_head**-0.5")
