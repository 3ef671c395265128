import torch
from common import *

N = "encoder_stack"
a, k = default(N)
tok, kpm = a
base = run(N)
# 1) pad content invariance (mask kept explicit)
a2 = clone(a); a2[0][1, 4:] = torch.tensor([30, 31, 32])
o2 = run(N, a2)
pad = md(base[1, :4], o2[1, :4])
# 2) trimmed sample alone vs in padded batch
o3 = run(N, [tok[1:, :4].clone(), kpm[1:, :4].clone()])
trim = md(base[1, :4], o3[0])
# 3) batch independence
o4 = run(N, [tok[:1].clone(), kpm[:1].clone()])
bat = md(base[0], o4[0])
# 4) attention module vs SDPA reference
m, _, _ = build(N)
x = torch.randn(2, 7, 32)
att = m.layers[0].attn
keep = ~kpm[:, None, None, :]
ref = ref_attn(x, x, att.W_q, att.W_k, att.W_v, att.W_o, 4, keep)
refd = md(att(x, kpm)[1, :4], ref[1, :4])
ok = max(pad, trim, bat, refd) < 1e-5
report(N, ok, pad_content=pad, trim=trim, batch=bat, ref_sdpa=refd)
