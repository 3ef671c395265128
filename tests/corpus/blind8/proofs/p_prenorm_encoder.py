import torch
from common import *

N = "prenorm_encoder"
m, a, _ = build(N)
ln = m.norm
x = torch.randn(2, 7, 32) * 3 + 2
lnd = md(ln(x), torch.nn.functional.layer_norm(x, (32,), ln.weight, ln.bias, ln.eps))
xs = torch.randn(2, 7, 32) * 1e-3
lnd_small = md(ln(xs), torch.nn.functional.layer_norm(xs, (32,), ln.weight, ln.bias, ln.eps))
src, sm = a
base = run(N)
a2 = clone(a); a2[0][0, 5:] = torch.tensor([33, 34])
pad = md(base[0, :5], run(N, a2)[0, :5])
trim = md(base[0, :5], run(N, [src[:1, :5].clone(), sm[:1, :, :, :5].clone()])[0])
report(N, max(lnd, lnd_small, pad, trim) < 1e-5, ln_vs_F_layer_norm=lnd, ln_vs_F_small_var=lnd_small, pad_content=pad, trim=trim)
