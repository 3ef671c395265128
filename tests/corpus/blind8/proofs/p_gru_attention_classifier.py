import torch
from common import *

N = "gru_attention_classifier"
a, k = default(N)
x, mask = a
base = run(N)
trim = max(md(base[b], run(N, [x[b:b + 1, :l].clone(), mask[b:b + 1, :l].clone()])[0]) for b, l in [(0, 5), (1, 2), (2, 7)])
a2 = clone(a); a2[0][0, 5:] = torch.tensor([50, 51]); a2[0][1, 2:] = 52
pad = md(base, run(N, a2))
report(N, max(trim, pad) < 1e-5, trim=trim, pad_content=pad)
