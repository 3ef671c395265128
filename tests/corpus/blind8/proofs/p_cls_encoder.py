import torch
from common import *

N = "cls_encoder"
a, k = default(N)
ids, am = a
base = run(N)
a2 = clone(a); a2[0][0, 6:] = torch.tensor([50, 51]); a2[0][1, 3:] = 52
pad = md(base, run(N, a2))
trim = max(md(base[b], run(N, [ids[b:b + 1, :l].clone(), am[b:b + 1, :l].clone()])[0]) for b, l in [(0, 6), (1, 3)])
report(N, max(pad, trim) < 1e-5, pad_content=pad, trim=trim)
