import torch
import torch.nn.functional as F
from common import *

N = "time_major_decoder"
caus = causal_effect(N, time_dim=0, out_time_dim=0)
m, a, _ = build(N)
at = m.attn[0]
x = torch.randn(8, 2, 32) * 20
xb = x.transpose(0, 1)
ref = ref_attn(xb, xb, at.q, at.k, at.v, at.o, 4, causal=True).transpose(0, 1)
out = at(x)
refd = md(out, ref) / ref.abs().max().item()
report(N, caus < 1e-5 and refd < 1e-5 and nan_frac(out) == 0, causal_effect=caus, rel_diff_vs_sdpa_x20=refd)
