import torch
from _util import *
N = "c10_perceiver_latents"
R = Report(N, "correct")
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 4, scale=10.0)
y, _, _ = run(N, mut)
R.inv("padded inputs of sample 1 do not move its latents", md(base[1], y[1]))
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
def perm(a, k):
    p = torch.tensor([3, 1, 0, 2])
    a[0][1, :4] = a[0][1, p].clone()
    a[0][0] = a[0][0, torch.randperm(10, generator=torch.Generator().manual_seed(1))].clone()
y2, _, _ = run(N, perm)
R.inv("latents invariant to permuting valid inputs", md(base, y2), 1e-6)
R.done()
