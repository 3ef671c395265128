import torch
from common import *

N = "translator"
a, k = default(N)
src, tgt = a
base = run(N)  # (T, B, V)
# causality over the target (time dim 0); random tokens from 2..44 (no pads)
caus = causal_effect(N, tok_idx=1, time_dim=0, out_time_dim=0, vocab=(2, 45))
# source padding invariance: sample 1 trimmed (src length 4, tgt length 4) alone
o = run(N, [src[:4, 1:2].clone(), tgt[:4, 1:2].clone()])
trim = md(base[:4, 1], o[:, 0])
# batch independence for sample 0
o0 = run(N, [src[:, 0:1].clone(), tgt[:, 0:1].clone()])
bat = md(base[:, 0], o0[:, 0])
report(N, max(caus, trim, bat) < 1e-5, causal_effect=caus, trim=trim, batch=bat)
