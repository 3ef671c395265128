import torch
from common import *

N = "rnn_classifier"
a, k = default(N)
ids, L = a
base = run(N)
trim = max(md(base[b], run(N, [ids[b:b + 1, :l].clone(), L[b:b + 1].clone()])[0]) for b, l in enumerate(L.tolist()))
a2 = clone(a); a2[0][1, 3:] = torch.tensor([44, 45, 46]); a2[0][2, 2:] = 47
pad = md(base[1:], run(N, a2)[1:])
report(N, trim > 1e-3 and pad > 1e-3, trim_effect=trim, pad_content_effect=pad)
