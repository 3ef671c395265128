import torch
from lib import *
N = "r46_library_encoder"
m, a, kw = build(N)
ids = a[0]
am = ids != 0
tr = max(maxdiff(run(N)[i:i+1], run(N, lambda m_, a_, kw_, i=i, L=L: ([a_[0][i:i+1, :L]], kw_))) for i, L in [(0, 7), (2, 4)])
trh = max(maxdiff(run(N, pick=second)[i:i+1, :L], run(N, lambda m_, a_, kw_, i=i, L=L: ([a_[0][i:i+1, :L]], kw_), pick=second)) for i, L in [(0, 7), (2, 4)])
ext = maxdiff(run(N), run(N, lambda m_, a_, kw_: ([torch.cat([a_[0], torch.zeros(3, 4, dtype=torch.long)], 1)], kw_)))
b = batch_probe(N)
det = determinism(N)
assert max(tr, trh, ext, b, det) < 1e-4
report(name=N, verdict="correct", truncation_logits_diff=tr, truncation_hidden_diff=trh, extra_padding_logits_diff=ext, batch_diff=b, eval_repeat_diff=det,
       note="mask derived from ids, so padding is probed by truncation and by appending pad columns")
