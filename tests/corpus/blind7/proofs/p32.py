import torch
from _util import *
N = "c32_set_encoder_pool"
R = Report(N, "bug")
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 5, scale=5.0)
y, _, _ = run(N, mut)
R.harm("sample 1 class logits move when its padded points change", md(base[1], y[1]))
R.inv("sample 0 (no padding) unchanged", md(base[0], y[0]))
# reference: masked mean over real points only
m, a, _ = fresh(N)
pts, n = a
with torch.no_grad():
    solo = m(pts[1:2, :5], torch.tensor([5]))
R.harm("padded sample 1 differs from the same 5 points without padding", md(base[1], solo[0]))
R.done()
