import torch
from common import *

N = "relative_encoder"
a, k = default(N)
ids, am = a
base = run(N)
real = am.bool()
a2 = clone(a); a2[0][1, 4:] = torch.tensor([40, 41, 42, 43]); a2[0][2, 6:] = 44
pad = md(base[real], run(N, a2)[real])
trim = max(md(base[b, :L], run(N, [ids[b:b + 1, :L].clone(), am[b:b + 1, :L].clone()])[0])
           for b, L in [(1, 4), (2, 6)])
bat = md(base[0], run(N, [ids[:1].clone(), am[:1].clone()])[0])
report(N, max(pad, trim, bat) < 1e-5, pad_content=pad, trim=trim, batch=bat)
