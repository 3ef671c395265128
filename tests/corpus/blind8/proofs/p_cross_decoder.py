import torch
from common import *

N = "cross_decoder"
caus = causal_effect(N, tok_idx=0)
a, k = default(N)
tgt, mem, sm = a
base = run(N)
a2 = clone(a); a2[1][1, 5:] = torch.randn(3, 32) * 5
pad = md(base[1], run(N, a2)[1])
trim = md(base[1], run(N, [tgt[1:].clone(), mem[1:, :5].clone(), sm[1:, :5].clone()])[0])
report(N, max(caus, pad, trim) < 1e-5, causal_effect=caus, memory_pad_content=pad, memory_trim=trim)
