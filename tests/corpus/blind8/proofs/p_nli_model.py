import torch
from common import *

N = "nli_model"
a, k = default(N)
ids, tt, am = a
base = run(N)
a2 = clone(a); a2[0][0, 8:] = torch.tensor([50, 51]); a2[1][0, 8:] = 1; a2[0][1, 7:] = 52
pad = md(base, run(N, a2))
trim = max(md(base[b], run(N, [ids[b:b + 1, :l].clone(), tt[b:b + 1, :l].clone(), am[b:b + 1, :l].clone()])[0]) for b, l in [(0, 8), (1, 7)])
report(N, max(pad, trim) < 1e-5, pad_content=pad, trim=trim)
