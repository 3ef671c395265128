import torch
from lib import *
N = "r87_roberta_style_classifier"
m, a, kw = build(N)
am = a[1]
tr = max(maxdiff(run(N)[i:i+1], run(N, lambda m_, a_, kw_, i=i, L=L: ([a_[0][i:i+1, :L], a_[1][i:i+1, :L]], kw_))) for i, L in [(0, 6), (2, 4)])
def ext(m_, a_, kw_):
    return [torch.cat([a_[0], torch.ones(3, 3, dtype=torch.long)], 1), torch.cat([a_[1], torch.zeros(3, 3, dtype=torch.long)], 1)], kw_
e = maxdiff(run(N), run(N, ext))
b = batch_probe(N)
det = determinism(N)
assert max(tr, e, b, det) < 1e-5
report(name=N, verdict="correct", truncation_logit_diff=tr, extra_padding_logit_diff=e, batch_diff=b, eval_repeat_diff=det,
       note="pad id doubles as position padding_idx; pad content cannot be perturbed without changing positions, so padding is probed by truncation and appended pads")
