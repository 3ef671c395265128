import torch
from common import *

N = "pos_tagger"
a, k = default(N)
tok = a[0]
base = run(N)
trim = max(md(base[b, :l], run(N, [tok[b:b + 1, :l].clone()])[0]) for b, l in [(0, 5), (2, 2)])
perm = torch.tensor([2, 0, 1])
order = md(base[perm], run(N, [tok[perm].clone()]))
# positions matter: reversing sample 1 changes its outputs beyond a permutation
a2 = clone(a); a2[0][1] = a2[0][1].flip(0)
posinfo = md(base[1].flip(0), run(N, a2)[1])
report(N, max(trim, order) < 1e-5 and posinfo > 1e-3, trim=trim, batch_order=order, position_sensitivity=posinfo)
