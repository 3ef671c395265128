import torch
from lib import *
N = "r79_local_window_encoder"
m, a, kw = build(N)
ids = a[0]
base = run(N)
T = 14
dep = torch.zeros(T, T)
for j in range(10):
    x = ids.clone(); x[0, j] = (x[0, j] + 11) % 59 + 1
    o = run(N, lambda m_, a_, kw_, x=x: ([x], kw_))
    dep[:, j] = (o[0] - base[0]).abs().amax(-1)
i = torch.arange(T)[:, None]; jj = torch.arange(T)[None, :]
reach = ((i - jj).abs() <= 4)
outside = dep[:, :10][~reach[:, :10]].max().item()
inside = dep[:, :10][reach[:, :10]].min().item()
tr = maxdiff(base[1:, :10], run(N, lambda m_, a_, kw_: ([a_[0][1:, :10]], kw_)))
real = ids != 0
ext = maxdiff(base[real], run(N, lambda m_, a_, kw_: ([torch.cat([a_[0], torch.zeros(2, 3, dtype=torch.long)], 1)], kw_))[:, :14][real])
b = batch_probe(N)
det = determinism(N)
assert outside < 1e-6 and inside > 1e-5 and max(tr, b, det) < 1e-5 and ext < 1e-5
report(name=N, verdict="correct", dep_outside_2layer_band=outside, dep_inside_min=inside, truncation_diff=tr, extra_padding_diff=ext, batch_diff=b, eval_repeat_diff=det,
       note="bidirectional band |i-j|<=2 per layer; two layers reach |i-j|<=4")
