import torch
from common import *

N = "mini_gpt"
caus = causal_effect(N, vocab=(0, 32))
m, _, _ = build(N)
ln = m.blocks[0].ln1
x = torch.randn(2, 8, 32)
ref = torch.nn.functional.layer_norm(x, (32,), ln.gamma, ln.beta, ln.eps)
refd = md(ln(x), ref)
report(N, caus > 1e-3 and refd > 1e-2, causal_effect=caus, diff_vs_F_layer_norm=refd)
