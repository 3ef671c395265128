from lib import *
N = "r27_hub_causal_lm"
c = causal_probe(N, vocab=70)
b = batch_probe(N)
det = determinism(N)
assert max(c, b, det) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, batch_diff=b, eval_repeat_diff=det)
