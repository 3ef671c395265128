import torch
from lib import *
N = "r65_multiquery_lm"
c = causal_probe(N, vocab=64)
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
at = m.h[0].self_attention
x = torch.randn(2, 10, 32)
with torch.no_grad():
    f = at.query_key_value(x)
    q = f[..., :32].view(2, 10, 4, 8); k = f[..., 32:40]; v = f[..., 40:48]
    outs = []
    for h in range(4):
        s = q[:, :, h] @ k.transpose(1, 2) / 8 ** 0.5
        s = s.masked_fill(torch.ones(10, 10).triu(1).bool(), float("-inf"))
        outs.append(s.softmax(-1) @ v)
    ref = maxdiff(at(x), at.dense(torch.cat(outs, -1)))
assert max(c, det, b, ref) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b, loop_ref_diff=ref,
       note="single shared k/v head expanded over query heads")
