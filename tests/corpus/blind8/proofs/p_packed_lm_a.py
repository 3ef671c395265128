import torch
from common import *

N = "packed_lm_a"
a, k = default(N)
base = run(N)
seg = a[1]
nan_seg0 = torch.isnan(base[seg == 0]).float().mean().item()
nan_all = nan_frac(base)
m, _, _ = build(N)
T = 8
allowed = (seg[:, :, None] == seg[:, None, :]) & torch.ones(T, T, dtype=torch.bool).tril() & (seg > 0)[:, None, :]
rows_without_keys = int((~allowed.any(-1)).sum())
report(N, nan_seg0 == 1.0 and rows_without_keys > 0, nan_frac_segment0_outputs=nan_seg0, nan_frac_all=nan_all,
       real_query_rows_without_any_key=rows_without_keys)
