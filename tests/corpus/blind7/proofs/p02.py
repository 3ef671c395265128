from _util import *
N = "c02_ctc_encoder"
R = Report(N, "bug")
base, a, _ = run(N)
def mut(a, k): perturb_tail(a[0][1:2], 1, 6, scale=5.0)
y, _, _ = run(N, mut)
R.harm("sample 1 (len 6): real frames 0..5 move when padded frames 6.. change", md(base[1, :6], y[1, :6]))
def mut2(a, k): perturb_tail(a[0][1:2], 1, 7, scale=5.0)
y2, _, _ = run(N, mut2)
R.inv("frames 7.. changed only (first pad 6 kept): real frames stay", md(base[1, :6], y2[1, :6]), 1e-5)
R.done()
