import torch
from common import *

N = "bert_pretrain"
a, k = default(N)
ids, am = a
base = run(N)
a2 = clone(a)
a2[0][0, 6:] = torch.tensor([50, 51]); a2[0][1, 5:] = torch.tensor([52, 53, 54])
o2 = run(N, a2)
real = am.bool()
pad = md(base[real], o2[real])
# with the mask polarity flipped in the inputs the model becomes pad-invariant
a3 = clone(a); a3[1] = 1 - a3[1]
a4 = clone(a2); a4[1] = 1 - a4[1]
flipped = md(run(N, a3)[real], run(N, a4)[real])
report(N, pad > 1e-3 and flipped < 1e-5, pad_content_effect=pad, effect_with_flipped_mask=flipped)
