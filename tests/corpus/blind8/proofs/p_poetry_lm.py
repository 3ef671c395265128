import torch
import torch.nn.functional as F
from common import *

N = "poetry_lm"
caus = causal_effect(N, vocab=(0, 42))
m, _, _ = build(N)
at = m.blocks[0].mqa
x = torch.randn(3, 8, 32)
q = at.q_proj(x).view(3, 8, 4, 8).transpose(1, 2)
k, v = at.kv_proj(x).split(8, -1)
ref = F.scaled_dot_product_attention(q, k[:, None].expand(-1, 4, -1, -1), v[:, None].expand(-1, 4, -1, -1), is_causal=True)
ref = at.out_proj(ref.transpose(1, 2).reshape(3, 8, 32))
refd = md(at(x), ref)
report(N, max(caus, refd) < 1e-5, causal_effect=caus, ref_sdpa=refd)
