import torch
from common import *

N = "chat_lm"
a, k = default(N)
ids, am = a
base = run(N)
trim = max(md(base[b, s:], run(N, [ids[b:b + 1, s:].clone(), am[b:b + 1, s:].clone()])[0]) for b, s in [(0, 3), (2, 5)])
a2 = clone(a); a2[0][0, :3] = torch.tensor([45, 46, 47]); a2[0][2, :5] = 48
real = am.bool()
pad = md(base[real], run(N, a2)[real])
caus = causal_effect(N, vocab=(3, 50))
nan = torch.isnan(base).any().item()
report(N, max(trim, pad, caus) < 1e-5 and not nan, trim=trim, pad_content=pad, causal_effect=caus, any_nan=nan)
