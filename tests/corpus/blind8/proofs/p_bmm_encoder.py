import torch
from common import *

N = "bmm_encoder"
a, k = default(N)
ids, mask = a
base = run(N)
a2 = clone(a); a2[0][0, 4:] = torch.tensor([40, 41, 42, 43])
pad = md(base[0, :4], run(N, a2)[0, :4])
trim = md(base[0, :4], run(N, [ids[:1, :4].clone(), mask[:1, :4].clone()])[0])
m, _, _ = build(N)
at = m.blocks[0].mha
x = torch.randn(2, 8, 32)
ref = ref_attn(x, x, at.w_q, at.w_k, at.w_v, at.w_o, 4, keep=mask.bool()[:, None, None, :])
refd = md(at(x, mask)[mask.bool()], ref[mask.bool()])
report(N, pad > 1e-3 and refd > 1e-3, pad_content_effect=pad, trim_effect=trim, diff_vs_sdpa=refd)
