import torch
from lib import *
N = "r69_bart_style_seq2seq"
m, a, kw = build(N)
am = a[1]
c = causal_probe(N, idx=2, vocab=50)
p = pad_probe(N, 0, am == 0, vocab=50)
tr = maxdiff(run(N)[1:], run(N, lambda m_, a_, kw_: ([a_[0][1:, :7], a_[1][1:, :7], a_[2][1:]], kw_)))
b = batch_probe(N)
det = determinism(N)
assert max(c, p, tr, b, det) < 1e-5
report(name=N, verdict="correct", causal_maxdiff=c, src_pad_perturb_diff=p, src_truncation_diff=tr, batch_diff=b, eval_repeat_diff=det,
       note="source length 11, target length 6; cross-attention uses the expanded encoder mask (B,1,T_tgt,S)")
