import torch
from _util import *
N = "c09_qformer_padded_image"
R = Report(N, "bug")
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 5, scale=5.0)
y, _, _ = run(N, mut)
R.harm("sample 1 query outputs move when its padded image feats (5..7) change", md(base[1], y[1]))
R.inv("sample 0 (no pads) unaffected", md(base[0], y[0]))
R.done()
