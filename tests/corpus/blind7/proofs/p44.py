import torch
from _util import *
N = "c44_conformer_conv_module_b"
R = Report(N, "correct")
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 6, scale=10.0)
y, _, _ = run(N, mut)
R.inv("sample 1 real frames unchanged when its padded frames change", md(base[1, :6], y[1, :6]))
m, a, _ = fresh(N)
with torch.no_grad():
    solo = m(a[0][1:2, :6], torch.tensor([6]))
R.inv("padded sample 1 == its 6 real frames run unpadded", md(base[1, :6], solo[0]), 1e-6)
R.done()
