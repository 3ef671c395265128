import torch
from common import *

N = "roberta_mlm"
a, k = default(N)
ids, am = a
base = run(N)
a2 = clone(a); a2[0][0, 6:] = torch.tensor([40, 41, 42])
pad = md(base[0, :6], run(N, a2)[0, :6])
trim = md(base[0, :6], run(N, [ids[:1, :6].clone(), am[:1, :6].clone()])[0])
bat = md(base[1], run(N, [ids[1:].clone(), am[1:].clone()])[0])
report(N, max(pad, trim, bat) < 1e-4, pad_content=pad, trim=trim, batch=bat)
