import torch
from lib import *
N = "r20_causal_lm_small"
FIX = [("variance = hidden_states.pow(2).mean(1, keepdim=True)", "variance = hidden_states.pow(2).mean(-1, keepdim=True)")]
m, a, kw = build(N)
am = kw["attention_mask"]
c = causal_probe(N, vocab=64, keep=(am == 1))
p = pad_probe(N, 0, am == 0, vocab=64, keep=(am == 1))
tw, twr = twin_diff(N, FIX, keep=(am == 1))
assert c > 1e-2
report(name=N, verdict="buggy", harm="causal", fix=FIX, fixed_twin_maxdiff=tw, fixed_twin_rel=twr, causal_maxdiff=c, left_pad_perturb_diff=p,
       note="RMSNorm statistic taken over the sequence axis: every position is scaled by a quantity that includes future tokens")
