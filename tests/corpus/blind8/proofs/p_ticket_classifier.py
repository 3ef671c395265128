import torch
from common import *

N = "ticket_classifier"
a, k = default(N)
ids, am = a
base = run(N)
a2 = clone(a); a2[0][0, 5:] = torch.tensor([50, 51, 52]); a2[0][2, 2:] = 53
pad = md(base, run(N, a2))
trim = max(md(base[b], run(N, [ids[b:b + 1, :l].clone(), am[b:b + 1, :l].clone()])[0]) for b, l in [(0, 5), (2, 2)])
report(N, max(pad, trim) < 1e-5 and nan_frac(base) == 0, pad_content=pad, trim=trim)
