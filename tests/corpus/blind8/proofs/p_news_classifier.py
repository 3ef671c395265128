import torch
from common import *

N = "news_classifier"
a, k = default(N)
src = a[0]
base = run(N)
# 1) reorder the batch: a sample's logits depend on its index in the batch
perm = torch.tensor([2, 0, 1])
o = run(N, [src[perm].clone()])
order = md(base[perm], o)
# 2) no positional information along the sequence: permuting tokens of sample 0 leaves its logits unchanged
a2 = clone(a); a2[0][0] = a2[0][0][torch.tensor([6, 5, 4, 3, 2, 1, 0])]
shuffle = md(base[0], run(N, a2)[0])
# 3) the added table is constant over positions
m, _, _ = build(N)
x = torch.zeros(3, 7, 32)
added = m.pos_encoder(x)
const_over_t = md(added[:, 0:1].expand(-1, 7, -1), added)
report(N, order > 1e-3 and shuffle < 1e-5 and const_over_t == 0.0, batch_order_effect=order,
       token_shuffle_effect=shuffle, pe_variation_over_positions=const_over_t)
