import torch
from common import *

N = "time_major_classifier"
a, k = default(N)
src = a[0]
base = run(N)
lengths = [5, 2, 4]
trim = max(md(base[b], run(N, [src[:l, b:b + 1].clone()])[0]) for b, l in enumerate(lengths))
more = torch.cat([src, torch.zeros(3, 3, dtype=torch.long)], 0)
extra = md(base, run(N, [more]))
report(N, max(trim, extra) < 1e-5, trim=trim, extra_padding=extra)
