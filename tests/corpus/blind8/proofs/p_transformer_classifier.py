import torch
from common import *

N = "transformer_classifier"
a, k = default(N)
ids, am = a
base = run(N)
trim = max(md(base[b], run(N, [ids[b:b + 1, :l].clone(), am[b:b + 1, :l].clone()])[0]) for b, l in [(0, 6), (1, 3), (2, 8)])
a2 = clone(a); a2[0][0, 6:] = torch.tensor([60, 61]); a2[0][1, 3:] = 62
pad = md(base, run(N, a2))
report(N, max(trim, pad) < 1e-5, trim=trim, pad_content=pad)
