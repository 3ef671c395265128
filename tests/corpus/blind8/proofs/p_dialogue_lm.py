import torch
from common import *

N = "dialogue_lm"
caus = causal_effect(N, vocab=(1, 50))
a, k = default(N)
ids, am = a
base = run(N)
trim = md(base[0, :6], run(N, [ids[:1, :6].clone(), am[:1, :6].clone()])[0])
a2 = clone(a); a2[0][0, 6:] = torch.tensor([40, 41])
pad = md(base[0, :6], run(N, a2)[0, :6])
report(N, max(caus, trim, pad) < 1e-5, causal_effect=caus, trim=trim, pad_content=pad)
