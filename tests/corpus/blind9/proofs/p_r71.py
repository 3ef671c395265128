import torch, math
from lib import *
N = "r71_flash_gpt"
c = causal_probe(N, vocab=64)
det = determinism(N)
b = batch_probe(N)
m, a, kw = build(N)
assert m.transformer.h[0].attn.flash and not m.training
assert max(c, det, b) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, eval_repeat_diff=det, batch_diff=b)
