import torch
from common import *

N = "time_major_tagger"
a, k = default(N)
src = a[0]
base = run(N)
perm = torch.tensor([2, 0, 1])
order = md(base[:, perm], run(N, [src[:, perm].clone()]))
# tokens of sample 0 (no padding) reversed: outputs are just reversed (no positional information)
a2 = clone(a); a2[0][:, 0] = a2[0][:, 0].flip(0)
shuffle = md(base[:, 0].flip(0), run(N, a2)[:, 0])
report(N, order > 1e-3 and shuffle < 1e-5, batch_order_effect=order, reversed_tokens_equivariance_gap=shuffle)
