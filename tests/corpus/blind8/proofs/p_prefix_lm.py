import torch
from common import *

N = "prefix_lm"
a, k = default(N)
ids, P = a
base = run(N)
g = torch.Generator().manual_seed(0)
worst_suffix = 0.0
for b in range(2):
    p = int(P[b])
    for t in range(p - 1, 8):
        a2 = clone(a); a2[0][b, t + 1:] = torch.randint(0, 50, (8 - t,), generator=g)
        worst_suffix = max(worst_suffix, md(base[b, :t + 1], run(N, a2)[b, :t + 1]))
# inside the prefix attention is bidirectional (expected): last prefix token affects first position
a3 = clone(a); a3[0][1, 4] = (a3[0][1, 4] + 3) % 50
bidir = md(base[1, 0], run(N, a3)[1, 0])
bat = md(base[0], run(N, [ids[:1].clone(), P[:1].clone()])[0])
report(N, worst_suffix < 1e-5 and bat < 1e-5 and bidir > 1e-3, future_beyond_prefix_effect=worst_suffix,
       in_prefix_bidirectional_effect=bidir, batch=bat)
