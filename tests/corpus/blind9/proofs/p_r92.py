from lib import *
N = "r92_token_tagger"
m, a, kw = build(N)
am = a[1]
p = pad_probe(N, 0, am == 0, vocab=55, keep=(am == 1))
tr = max(trunc_probe(N, 0, 6, seq_args=(0, 1)), trunc_probe(N, 2, 3, seq_args=(0, 1)))
b = batch_probe(N)
det = determinism(N)
assert max(p, tr, b, det) < 1e-4
report(name=N, verdict="correct", pad_perturb_diff=p, truncation_diff=tr, batch_diff=b, eval_repeat_diff=det,
       note="pad query rows are zeroed after attention; keys masked with -1e9 (fp32)")
