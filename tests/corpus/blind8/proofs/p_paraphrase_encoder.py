import torch
from common import *

N = "paraphrase_encoder"
a, k = default(N)
tok, kpm = a
base = run(N)
a2 = clone(a); a2[0][1, 3:] = torch.tensor([30, 31, 32])
pad = md(base[1, :3], run(N, a2)[1, :3])
trim = md(base[1, :3], run(N, [tok[1:, :3].clone(), kpm[1:, :3].clone()])[0])
m, _, _ = build(N)
x = torch.randn(2, 6, 32)
at = m.att1
ref = ref_attn(x, x, at.to_q, at.to_k, at.to_v, at.to_out, 4, keep=~kpm[:, None, None, :])
refd = md(at(x, kpm), ref)
report(N, max(pad, trim, refd) < 1e-5, pad_content=pad, trim=trim, ref_sdpa_at_init=refd)
