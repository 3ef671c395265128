import torch
from common import *

N = "local_encoder"
a, k = default(N)
tok, pm = a
base = run(N)
a2 = clone(a); a2[0][1, 4:] = torch.arange(30, 36)
pad = md(base[1, :4], run(N, a2)[1, :4])
trim = md(base[1, :4], run(N, [tok[1:, :4].clone(), pm[1:, :4].clone()])[0])
# receptive field: 2 layers x window 2 = 4; token 9 must not influence position 0..4
a3 = clone(a); a3[0][0, 9] = 1
far = md(base[0, :5], run(N, a3)[0, :5])
near = md(base[0, 5:], run(N, a3)[0, 5:])
report(N, max(pad, trim, far) < 1e-5 and near > 1e-3, pad_content=pad, trim=trim, far_token_effect=far, near_token_effect=near)
