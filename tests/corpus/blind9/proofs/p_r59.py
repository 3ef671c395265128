import torch
from lib import *
N = "r59_batched_generation_lm"
m, a, kw = build(N)
am = a[1]
c = causal_probe(N, vocab=64, keep=(am == 1))
p = pad_probe(N, 0, am == 0, vocab=64, keep=(am == 1))
tr = max(maxdiff(run(N)[i:i+1, s:], run(N, lambda m_, a_, kw_, i=i, s=s: ([a_[0][i:i+1, s:], a_[1][i:i+1, s:]], kw_))) for i, s in [(1, 4), (2, 2)])
nan = has_nan(N)
det = determinism(N)
assert max(c, p, tr, det) < 1e-4 and not nan
report(name=N, verdict="correct", causal_maxdiff=c, left_pad_perturb_diff=p, unpadded_vs_leftpadded_diff=tr, any_nan=nan, eval_repeat_diff=det)
