import torch
from common import *

N = "fairseq_encoder"
a, k = default(N)
src = a[0]
base = run(N)
trim = max(md(base[b, :L], run(N, [src[b:b + 1, :L].clone()])[0]) for b, L in [(0, 6), (1, 4)])
bat = md(base[2], run(N, [src[2:].clone()])[0])
m, _, _ = build(N)
at = m.layers[0].self_attn
x = torch.randn(3, 8, 32)
pad = src.eq(1)
ref = ref_attn(x, x, at.q_proj, at.k_proj, at.v_proj, at.out_proj, 4, keep=~pad[:, None, None, :])
refd = md(at(x, pad), ref)
report(N, max(trim, bat, refd) < 1e-5, trim=trim, batch=bat, ref_sdpa=refd)
