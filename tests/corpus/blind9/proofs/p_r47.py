import torch
from lib import *
N = "r47_seqfirst_encoder"
m, a, kw = build(N)
lengths = a[1]
am = (torch.arange(9)[None, :] < lengths[:, None])
p = pad_probe(N, 0, ~am, vocab=40, keep=am)
def tr(i):
    L = int(lengths[i])
    return maxdiff(run(N)[i:i+1, :L], run(N, lambda m_, a_, kw_: ([a_[0][i:i+1, :L], a_[1][i:i+1]], kw_)))
t = max(tr(1), tr(2))
b = batch_probe(N)
det = determinism(N)
assert max(p, t, b, det) < 1e-4
report(name=N, verdict="correct", pad_perturb_diff=p, truncation_diff=t, batch_diff=b, eval_repeat_diff=det)
