import torch
from common import *

N = "intent_classifier"
a, k = default(N)
tok = a[0]
base = run(N)
trim = max(md(base[b], run(N, [tok[b:b + 1, s:].clone()])[0]) for b, s in [(0, 3), (2, 5)])
more = torch.cat([torch.full((3, 2), 2), tok], 1)
extra = md(base, run(N, [more]))
report(N, max(trim, extra) < 1e-5, trim=trim, extra_left_padding=extra)
