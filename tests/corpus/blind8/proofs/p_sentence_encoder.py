import torch
from common import *

N = "sentence_encoder"
a, k = default(N)
tok, pm = a
base = run(N)
a2 = clone(a); a2[0][0, 5:] = torch.tensor([30, 31])
pad = md(base[0, :5], run(N, a2)[0, :5])
trim = md(base[0, :5], run(N, [tok[:1, :5].clone(), pm[:1, :5].clone()])[0])
m, _, _ = build(N)
at = m.att1
x = torch.randn(2, 7, 32)
ref = ref_attn(x, x, at.wq, at.wk, at.wv, at.wo, 4, keep=~pm[:, None, None, :])
refd = md(at(x, pm), ref)
report(N, max(pad, trim, refd) < 1e-5, pad_content=pad, trim=trim, ref_sdpa=refd)
