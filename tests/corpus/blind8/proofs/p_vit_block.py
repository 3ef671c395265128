import torch
import torch.nn.functional as F
from common import *

N = "vit_block"
m, a, _ = build(N)
x, lengths = a
at = m.attn
h = m.norm1(x)
B, T, C = h.shape
q, k, v = at.qkv(h).view(B, T, 3, 4, 8).permute(2, 0, 3, 1, 4).unbind(0)
valid = torch.arange(T)[None] < lengths[:, None]
ref = at.proj(F.scaled_dot_product_attention(q, k, v, attn_mask=valid[:, None, None, :]).transpose(1, 2).reshape(B, T, C))
out = at(h, lengths)
diff = md(out, ref)
ref_dmodel = at.proj(F.scaled_dot_product_attention(q, k, v, attn_mask=valid[:, None, None, :], scale=32 ** -0.5).transpose(1, 2).reshape(B, T, C))
report(N, diff > 1e-3 and md(out, ref_dmodel) < 1e-5, diff_vs_sdpa=diff, diff_vs_sdpa_scale_1_over_sqrt_dmodel=md(out, ref_dmodel))
