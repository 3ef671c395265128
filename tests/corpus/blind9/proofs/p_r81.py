import math, torch
from lib import *
N = "r81_grouped_query_lm"
c = causal_probe(N, vocab=64)
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
at = m.layers[0].attention
x = torch.randn(2, 10, 48)
with torch.no_grad():
    q = at.wq(x).view(2, 10, 6, 8); k = at.wk(x).view(2, 10, 2, 8); v = at.wv(x).view(2, 10, 2, 8)
    outs = []
    for h in range(6):
        g = h // 3
        s = q[:, :, h] @ k[:, :, g].transpose(1, 2) / math.sqrt(8)
        s = s.masked_fill(torch.ones(10, 10).triu(1).bool(), float("-inf"))
        outs.append(s.softmax(-1) @ v[:, :, g])
    ref = maxdiff(at(x), at.wo(torch.cat(outs, -1)))
assert max(c, det, b, ref) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b, grouped_loop_ref_diff=ref,
       note="repeat_interleave on the head axis: query head h uses kv head h // n_rep (HF repeat_kv convention)")
