import torch
from common import *

N = "einops_encoder"
a, k = default(N)
x, pm = a
base = run(N)
a2 = clone(a); a2[0][pm] = 50
pad = md(base[~pm], run(N, a2)[~pm])
trim = max(md(base[b, :l], run(N, [x[b:b + 1, :l].clone(), pm[b:b + 1, :l].clone()])[0]) for b, l in [(0, 4), (1, 6), (2, 2)])
m, _, _ = build(N)
at = m.layers[0][0]
h = torch.randn(3, 7, 32)
import torch.nn.functional as F
hn = at.norm(h)
q, kk, v = [t.view(3, 7, 4, 8).transpose(1, 2) for t in at.to_qkv(hn).chunk(3, -1)]
ref = at.to_out(F.scaled_dot_product_attention(q, kk, v, attn_mask=~pm[:, None, None, :]).transpose(1, 2).reshape(3, 7, 32))
refd = md(at(h, pm), ref)
report(N, max(pad, trim, refd) < 1e-5, pad_content=pad, trim=trim, ref_sdpa=refd)
