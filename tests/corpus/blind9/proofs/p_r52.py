from lib import *
N = "r52_summarizer"
FIX = [("    p_attn = scores.softmax(dim=-2)", "    p_attn = scores.softmax(dim=-1)")]
m, a, kw = build(N)
c = causal_probe(N, idx=1, vocab=40)
ps = pad_probe(N, 0, a[0] == 0, vocab=40)
tw, twr = twin_diff(N, FIX)
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, causal_maxdiff=c, src_pad_perturb_diff=ps, fixed_twin_maxdiff=tw, fixed_twin_rel=twr,
       note="softmax over the query axis: each column is normalised across queries, so later queries change earlier rows' weights")
