import torch
from common import *

N = "token_encoder"
a, k = default(N)
tok, kpm = a
base = run(N)
a2 = clone(a); a2[0][0, 5:] = torch.tensor([33, 34]); a2[0][1, 3:] = 35
real = ~kpm
pad = md(base[real], run(N, a2)[real])
a3 = clone(a); a3[0][0, 1] = 38
own = md(base[0, 0], run(N, a3)[0, 0])
report(N, pad > 1e-3, pad_content_effect=pad, real_token_change_effect_on_other_real=own)
