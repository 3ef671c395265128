import torch
from common import *

N = "set_encoder"
a, k = default(N)
pts, pm = a
base = run(N)
a2 = clone(a); a2[0][pm] = torch.randn(int(pm.sum()), 16) * 10
pad = md(base, run(N, a2))
trim = max(md(base[b], run(N, [pts[b:b + 1, :l].clone(), pm[b:b + 1, :l].clone()])[0]) for b, l in [(1, 6), (2, 3)])
perm = torch.randperm(9, generator=torch.Generator().manual_seed(0))
a3 = clone(a); a3[0][0] = a3[0][0][perm]
permd = md(base[0], run(N, a3)[0])
report(N, max(pad, trim, permd) < 1e-5, pad_content=pad, trim=trim, set_permutation=permd)
