import torch
from common import *

N = "gru_classifier"
a, k = default(N)
text, L = a
base = run(N)
trim = max(md(base[b], run(N, [text[b:b + 1, :l].clone(), L[b:b + 1].clone()])[0]) for b, l in enumerate(L.tolist()))
a2 = clone(a); a2[0][0, 3:] = torch.tensor([50, 51, 52]); a2[0][2, 2:] = 55
pad = md(base, run(N, a2))
report(N, max(trim, pad) < 1e-5, trim=trim, pad_content=pad)
