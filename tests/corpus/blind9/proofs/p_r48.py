from lib import *
N = "r48_library_decoder"
m, a, kw = build(N)
c = causal_probe(N, vocab=50)
pm = pad_probe(N, 1, ~a[2])
b = batch_probe(N)
det = determinism(N)
assert max(c, pm, b, det) < 1e-4
report(name=N, verdict="correct", causal_maxdiff=c, memory_pad_perturb_diff=pm, batch_diff=b, eval_repeat_diff=det)
