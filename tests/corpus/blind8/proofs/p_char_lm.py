import torch
import torch.nn.functional as F
from common import *

N = "char_lm"
caus = causal_effect(N, vocab=(0, 30))
m, a, _ = build(N)
x = torch.randn(3, 9, 24)
h = m.blocks[0].sa.heads[0]
ref = F.scaled_dot_product_attention(h.query(x), h.key(x), h.value(x), is_causal=True)
refd = md(h(x), ref)
rep = eval_repeat(N)
report(N, max(caus, refd, rep) < 1e-5, causal_effect=caus, ref_sdpa_causal=refd, repeat=rep)
