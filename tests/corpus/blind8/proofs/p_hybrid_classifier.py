import torch
from common import *

N = "hybrid_classifier"
a, k = default(N)
tok = a[0]
base = run(N)
trim = max(md(base[b], run(N, [tok[b:b + 1, :l].clone()])[0]) for b, l in [(0, 4), (1, 7), (2, 2)])
more = torch.cat([tok, torch.full((3, 3), 3)], 1)
extra = md(base, run(N, [more]))
report(N, max(trim, extra) < 1e-5, trim=trim, extra_padding=extra)
