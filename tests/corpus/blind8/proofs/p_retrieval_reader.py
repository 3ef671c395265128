import torch
from common import *

N = "retrieval_reader"
a, k = default(N)
q, d, sm = a
base = run(N)
a2 = clone(a); a2[1][1, 6:] = torch.randn(3, 16) * 10
pad = md(base, run(N, a2))
trim = md(base[1], run(N, [q[1:].clone(), d[1:, :6].clone(), sm[1:, :6].clone()])[0])
# keys are an unordered set: permuting the real documents (with the mask) changes nothing
perm = torch.tensor([4, 2, 0, 5, 1, 3, 6, 7, 8])
pm = md(base, run(N, [q.clone(), d[:, perm].clone(), sm[:, perm].clone()]))
report(N, max(pad, trim, pm) < 1e-5, pad_content=pad, trim=trim, key_permutation=pm)
