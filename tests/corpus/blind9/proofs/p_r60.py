import torch
from lib import *
N = "r60_padded_batch_lm"
FIX = [('att = att.masked_fill(~allowed, float("-inf"))', 'att = att.masked_fill(~allowed, torch.finfo(att.dtype).min)')]
o = run(N)
m, a, kw = build(N)
am = a[1]
nan_rows = torch.isnan(o).any(-1)
frac_nan = nan_rows.float().mean().item()
nan_real = bool(nan_rows[am.bool()].any())
fixed_nan = bool(torch.isnan(run_fixed(N, FIX)).any())
clean = maxdiff(o[0], run_fixed(N, FIX)[0])
assert frac_nan > 0 and not fixed_nan
report(name=N, verdict="buggy", harm="numeric", fix=FIX, frac_positions_nan=frac_nan, nan_at_real_tokens=nan_real, fixed_has_nan=fixed_nan, unpadded_sample0_diff_vs_fixed=clean,
       note="left-pad query rows have every key masked; softmax over all -inf gives NaN, and NaN values then reach every query of the padded samples in layer 2 (0*NaN)")
