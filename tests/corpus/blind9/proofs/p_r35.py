from lib import *
N = "r35_keyword_spotter"
b = batch_probe(N)
det = determinism(N)
m, a, kw = build(N)
assert not m.training
assert max(b, det) < 1e-5
report(name=N, verdict="correct", batch_diff=b, eval_repeat_diff=det, note="BatchNorm1d in eval uses running statistics")
