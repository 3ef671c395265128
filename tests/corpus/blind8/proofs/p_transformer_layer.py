import math, torch
import torch.nn.functional as F
from common import *

N = "transformer_layer"
a, k = default(N)
x, mask = a
m, _, _ = build(N)
att = m.attn
h = m.ln1(x)
out = att(h, mask)
b, t, d = h.shape
q, kk, v = att.qkv(h).reshape(b, t, 3, 2, 16).unbind(2)
q, kk, v = (z.transpose(1, 2) for z in (q, kk, v))
ref = att.proj(F.scaled_dot_product_attention(q, kk, v, attn_mask=mask[:, None, None, :]).transpose(1, 2).reshape(b, t, d))
diff = md(out, ref)
# the same module equals SDPA when called with scale=1/d_head, i.e. the scale is 1/d instead of 1/sqrt(d)
ref2 = att.proj(F.scaled_dot_product_attention(q, kk, v, attn_mask=mask[:, None, None, :], scale=1 / 16).transpose(1, 2).reshape(b, t, d))
same_as_1_over_d = md(out, ref2)
# entropy of attention rows: too flat compared to reference
report(N, diff > 1e-3 and same_as_1_over_d < 1e-5, diff_vs_sdpa=diff, diff_vs_sdpa_scale_1_over_d=same_as_1_over_d)
