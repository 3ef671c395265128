import torch
from lib import *
N = "r88_albert_style_encoder"
m, a, kw = build(N)
am = a[1]
p = pad_probe(N, 0, am == 0, vocab=60, keep=(am == 1))
tr = max(trunc_probe(N, 1, 4, seq_args=(0, 1)), trunc_probe(N, 2, 6, seq_args=(0, 1)))
trp = max(trunc_probe(N, 1, 4, seq_args=(0, 1), pick=second, out_slice=False), trunc_probe(N, 2, 6, seq_args=(0, 1), pick=second, out_slice=False))
b = batch_probe(N)
det = determinism(N)
assert max(p, tr, trp, b, det) < 1e-4
report(name=N, verdict="correct", pad_perturb_diff=p, truncation_diff=tr, truncation_pooled_diff=trp, batch_diff=b, eval_repeat_diff=det,
       note="(1-mask)*-10000 in fp32: masked weights ~exp(-10000)=0")
