from lib import *
N = "r17_sentence_encoder"
m, a, kw = build(N)
am = a[1]
p = pad_probe(N, 0, am == 0, vocab=50, keep=(am == 1))
tr = max(trunc_probe(N, 0, 5, seq_args=(0, 1)), trunc_probe(N, 2, 2, seq_args=(0, 1)))
b = batch_probe(N)
det = determinism(N)
assert max(p, tr, b, det) < 1e-4
report(name=N, verdict="correct", pad_perturb_diff=p, truncation_diff=tr, batch_diff=b, eval_repeat_diff=det)
