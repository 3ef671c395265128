from lib import *
N = "r93_char_decoder"
c = causal_probe(N, vocab=65)
det = determinism(N)
b = batch_probe(N)
assert max(c, det, b) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b, note="bool tril attn_mask (True = attend) passed to SDPA")
