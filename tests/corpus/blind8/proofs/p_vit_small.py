import torch
from common import *

N = "vit_small"
a, k = default(N)
base = run(N)
bat = max(md(base[i], run(N, [a[0][i:i + 1].clone()])[0]) for i in range(3))
rep = eval_repeat(N)
# perturbing one image changes only that image's logits
a2 = clone(a); a2[0][1] += torch.randn(3, 12, 12)
o2 = run(N, a2)
other = max(md(base[0], o2[0]), md(base[2], o2[2]))
own = md(base[1], o2[1])
report(N, max(bat, rep, other) < 1e-5 and own > 1e-3, batch=bat, repeat=rep, cross_sample=other, own_effect=own)
