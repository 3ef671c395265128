import torch
import torch.nn.functional as F
from common import *

N = "image_classifier"
a, k = default(N)
base = run(N)
bat = md(base[1], run(N, [a[0][1:].clone()])[0])
rep = eval_repeat(N)
m, _, _ = build(N)
at = m.layers[0][0]
x = torch.randn(2, 9, 32)
q, kk, v = [t.view(2, 9, 4, 8).transpose(1, 2) for t in at.to_qkv(at.norm(x)).chunk(3, -1)]
ref = at.to_out(F.scaled_dot_product_attention(q, kk, v).transpose(1, 2).reshape(2, 9, 32))
refd = md(at(x), ref)
report(N, max(bat, rep, refd) < 1e-5, batch=bat, repeat=rep, ref_sdpa=refd)
