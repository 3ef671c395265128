import torch
from common import *

N = "gpt_flash"
caus = causal_effect(N, vocab=(0, 48))
m, _, _ = build(N)
at = m.transformer.h[0].attn
x = torch.randn(2, 8, 32)
import torch.nn.functional as F
q, k, v = [t.view(2, 8, 4, 8).transpose(1, 2) for t in at.c_attn(x).split(32, 2)]
ref = at.c_proj(F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(2, 8, 32))
refd = md(at(x), ref)
report(N, caus > 1e-3 and refd > 1e-3, causal_effect=caus, diff_vs_correct_merge=refd)
