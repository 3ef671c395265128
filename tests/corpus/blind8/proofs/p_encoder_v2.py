import torch
from common import *

N = "encoder_v2"
a, k = default(N)
src, mask = a
base = run(N)
a2 = clone(a); a2[0][2, :5] = torch.tensor([10, 11, 12, 13, 14])
cross = md(base[0], run(N, a2)[0])
pair = md(base[:2], run(N, [src[:2].clone(), mask[:2].clone()]))
m, _, _ = build(N)
x = torch.randn(3, 6, 32)
ln = m.norm
lnd = md(ln(x), torch.nn.functional.layer_norm(x, (32,), ln.alpha, ln.bias, ln.eps))
report(N, cross > 1e-3 and pair > 1e-3, other_sample_change_effect=cross, batch_subset_effect=pair, diff_vs_F_layer_norm=lnd)
