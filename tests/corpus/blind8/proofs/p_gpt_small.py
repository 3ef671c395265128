import torch
import torch.nn.functional as F
from common import *

N = "gpt_small"
caus = causal_effect(N, vocab=(0, 40))
m, a, _ = build(N)
x = torch.randn(2, 8, 32)
at = m.blocks[0].attn
ref = ref_attn(x, x, at.query, at.key, at.value, at.proj, 4, causal=True)
refd = md(at(x), ref)
report(N, caus > 1e-3 and refd > 1e-3, causal_effect=caus, diff_vs_sdpa_causal=refd)
