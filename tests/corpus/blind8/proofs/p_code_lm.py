import torch
import torch.nn.functional as F
from common import *

N = "code_lm"
caus = causal_effect(N, vocab=(0, 64))
m, a, _ = build(N)
at = m.layers[0].attn
x = torch.randn(3, 7, 32)
B, T, D = x.shape
q, k, v = at.Wqkv(x).view(B, T, 3, 4, 8).permute(2, 0, 3, 1, 4)
i = torch.arange(T)
bias = -at.slopes[:, None, None] * (i[:, None] - i[None, :]).float()
bias = bias.masked_fill(i[None, :] > i[:, None], float("-inf"))
ref = at.Wo(F.scaled_dot_product_attention(q, k, v, attn_mask=bias).permute(0, 2, 1, 3).reshape(B, T, D))
refd = md(at(x), ref)
report(N, max(caus, refd) < 1e-5, causal_effect=caus, ref_sdpa_alibi=refd)
