import torch
from common import *

N = "mha_classifier"
a, k = default(N)
tok = a[0]
base = run(N)
trim = max(md(base[b], run(N, [tok[b:b + 1, :l].clone()])[0]) for b, l in [(0, 4), (2, 2)])
more = torch.cat([tok, torch.zeros(3, 3, dtype=torch.long)], 1)
extra = md(base, run(N, [more]))
report(N, trim > 1e-3 and extra > 1e-3 and nan_frac(base) == 0, trim_effect=trim, extra_padding_effect=extra)
