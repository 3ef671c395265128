import torch
from common import *

N = "sequence_encoder"
a, k = default(N)
src = a[0]
base = run(N)
trim = max(md(base[b, :L], run(N, [src[b:b + 1, :L].clone()])[0]) for b, L in [(0, 5), (1, 3)])
# effect of extra padding on the real positions
more = torch.cat([src, torch.zeros(3, 3, dtype=torch.long)], 1)
extra = md(base[src != 0], run(N, [more])[:, :7][src != 0])
report(N, trim > 1e-3 and extra > 1e-3, trim_effect=trim, extra_padding_effect=extra)
