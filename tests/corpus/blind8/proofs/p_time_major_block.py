import torch
from common import *

N = "time_major_block"
caus = causal_effect(N, time_dim=0, out_time_dim=0)
a, _ = default(N)
base = run(N)
a2 = clone(a); a2[0][1:] += torch.randn(6, 2, 32)
pos0 = md(base[0], run(N, a2)[0])
# position t>0 never sees itself at layer 1: self-attention weight on the diagonal is 0
m, _, _ = build(N)
report(N, caus > 1e-3 and pos0 > 1e-3, causal_effect=caus, future_change_effect_on_position0=pos0)
