import torch
from lib import *
N = "r61_word_lm"
c = causal_probe(N, vocab=50, in_tdim=0, out_tdim=0)
b = batch_probe(N, bdim_args=[1], out_bdim=1)
det = determinism(N)
assert max(c, b, det) < 1e-4
report(name=N, verdict="correct", causal_maxdiff=c, batch_diff=b, eval_repeat_diff=det,
       note="sequence-first model: pe[:x.size(0)] indexes time")
