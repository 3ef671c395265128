import torch
import torch.nn.functional as F
from common import *

N = "llama_mini"
caus = causal_effect(N, vocab=(0, 50))
m, a, _ = build(N)
at = m.layers[0].attention
x = torch.randn(2, 9, 32)
q = at.wq(x).view(2, 9, 4, 8).transpose(1, 2)
k = at.wk(x).view(2, 9, 2, 8).transpose(1, 2)
v = at.wv(x).view(2, 9, 2, 8).transpose(1, 2)
ref = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
ref = at.wo(ref.transpose(1, 2).reshape(2, 9, 32))
refd = md(at(x), ref)
report(N, max(caus, refd) < 1e-5, causal_effect=caus, ref_sdpa_gqa=refd)
