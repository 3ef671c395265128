import torch
from _util import *
N = "c33_set_transformer_pma"
R = Report(N, "correct")
base, a, _ = run(N)
def mut(a, k):
    perturb_tail(a[0][1:2], 1, 3, scale=10.0); perturb_tail(a[0][2:3], 1, 6, scale=10.0)
y, _, _ = run(N, mut)
R.inv("padded elements do not move outputs", md(base, y))
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
def perm(a, k):
    a[0][0] = a[0][0, torch.tensor([5, 2, 7, 0, 1, 3, 6, 4])].clone()
    a[0][2, :6] = a[0][2, torch.tensor([4, 0, 5, 1, 3, 2])].clone()
y2, _, _ = run(N, perm)
R.inv("permutation invariance over real elements", md(base, y2), 1e-6)
m, a, _ = fresh(N)
with torch.no_grad():
    solo = m(a[0][1:2, :3], torch.tensor([3]))
R.inv("padded sample 1 == its 3 elements unpadded", md(base[1], solo[0]), 1e-6)
R.done()
