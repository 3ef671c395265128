import torch
from _util import *
N = "c25_partial_rotary"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6, 8], None).items():
    R.inv(f"outputs <= {t} unchanged when inputs > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
for dt, tol in ((torch.float32, 1e-5), (torch.float64, 1e-12)):
    m, a, _ = fresh(N)
    m = m.to(dt)
    x, pos = a[0].to(dt), a[1]
    with torch.no_grad():
        y0 = m(x, pos)
        y1 = m(x, pos + 7)
    R.inv(f"{dt}: output invariant to shifting all position ids by 7", md(y0, y1), tol)
q = torch.randn(2, 4, 10, 16); k = torch.randn(2, 4, 10, 16)
rot = mod.PartialRotary(16)
cos, sin = rot(torch.arange(10)[None].expand(2, -1))
q2, k2 = mod.apply_partial_rotary(q, k, cos, sin, rot.rot_dim)
R.inv("pass-through dims untouched", md(q2[..., 4:], q[..., 4:]), 0.0)
R.inv("rotated dims keep their norm", md(q2[..., :4].norm(dim=-1), q[..., :4].norm(dim=-1)), 1e-6)
R.done()
