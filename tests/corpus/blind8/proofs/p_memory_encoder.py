import torch
from common import *

N = "memory_encoder"
a, k = default(N)
tok, kpm = a
base = run(N)
a2 = clone(a); a2[0][0, 6:] = torch.tensor([44, 45]); a2[0][1, 3:] = 46
real = ~kpm
pad = md(base[real], run(N, a2)[real])
trim = max(md(base[b, :l], run(N, [tok[b:b + 1, :l].clone(), kpm[b:b + 1, :l].clone()])[0]) for b, l in [(0, 6), (1, 3)])
report(N, max(pad, trim) < 1e-5, pad_content=pad, trim=trim)
