import torch
from common import *

N = "blog_classifier"
a, k = default(N)
x = a[0]
base = run(N)
trim = md(base[0], run(N, [x[:1, :5].clone()])[0])
m, _, _ = build(N)
at = m.layers[0].enc_self_attn
h = torch.randn(2, 8, 32)
mask = (x == 0)
ref = ref_attn(h, h, at.W_Q, at.W_K, at.W_V, at.fc, 4, keep=~mask[:, None, None, :])
refd = md(at(h, h, h, mask[:, None, :].expand(2, 8, 8)), ref)
report(N, trim > 1e-3 and refd > 1e-3, trim_effect=trim, diff_vs_sdpa=refd)
