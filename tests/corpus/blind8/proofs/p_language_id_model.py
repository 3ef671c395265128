import torch
from common import *

N = "language_id_model"
a, k = default(N)
tok = a[0]
base = run(N)
trim = max(md(base[b], run(N, [tok[b:b + 1, :l].clone()])[0]) for b, l in [(0, 6), (1, 2), (2, 4)])
m, _, _ = build(N)
x = torch.randn(3, 7, 32)
pm = tok == 0
at = m.att1
import torch.nn.functional as F
q, kk, v = [t.view(3, 7, 4, 8).transpose(1, 2) for t in at.qkv(x).chunk(3, -1)]
ref = at.fc(F.scaled_dot_product_attention(q, kk, v, attn_mask=~pm[:, None, None, :]).transpose(1, 2).reshape(3, 7, 32))
refd = md(at(x, pm), ref)
report(N, max(trim, refd) < 1e-5, trim=trim, ref_sdpa=refd)
