import torch
import torch.nn.functional as F
from common import *

N = "patch_transformer"
m, a, _ = build(N)
at = m.blocks[0].attn
x = torch.randn(2, 5, 32)
q, k, v = at.qkv(x).reshape(2, 5, 3, 4, 8).permute(2, 0, 3, 1, 4)
ref = at.proj(F.scaled_dot_product_attention(q, k, v).transpose(1, 2).reshape(2, 5, 32))
refd = md(at(x), ref)
ref1 = at.proj(F.scaled_dot_product_attention(q, k, v, scale=1.0).transpose(1, 2).reshape(2, 5, 32))
report(N, refd > 1e-3 and md(at(x), ref1) < 1e-5, diff_vs_sdpa=refd, diff_vs_sdpa_scale_1=md(at(x), ref1))
