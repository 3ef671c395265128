import torch
from common import *

N = "review_classifier"
a, k = default(N)
ids, am = a
base = run(N)
a2 = clone(a); a2[0][0, 6:] = torch.tensor([60, 61, 62]); a2[0][1, 5:] = 63
pad = md(base[:2], run(N, a2)[:2])
trim = md(base[1], run(N, [ids[1:2, :5].clone(), am[1:2, :5].clone()])[0])
# attention rows of a padded sample sum to less than one
m, _, _ = build(N)
x = torch.randn(3, 9, 32)
at = m.attn[0]
import math, torch.nn.functional as F
q, kk, v = at.in_proj(x).chunk(3, -1)
s = (q.view(3, 9, 4, 8).transpose(1, 2) @ kk.view(3, 9, 4, 8).transpose(1, 2).transpose(-1, -2)) / math.sqrt(8)
rowsum = (F.softmax(s, -1) * am[:, None, None, :]).sum(-1)[1].min().item()
report(N, pad > 1e-3 and trim > 1e-3, pad_content_effect=pad, trim_effect=trim, min_row_sum_sample1=rowsum)
