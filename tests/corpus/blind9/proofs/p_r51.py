import math, torch
from lib import *
N = "r51_telemetry_forecaster"
FIX = [("""    scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.exp()""", """    scores = scores.masked_fill(~mask, float("-inf"))
    scores = scores - scores.amax(dim=dim, keepdim=True)
    weights = scores.exp()""")]
o = run(N)
nan_frac = torch.isnan(o).float().mean().item()
fixed_nan = bool(torch.isnan(run_fixed(N, FIX)).any())
m, a, kw = build(N)
with torch.no_grad():
    h = m.inp(a[0]) + m.pos[:12]
    att = m.blocks[0].attn
    q = att.wq(h).view(2, 12, 4, 8).transpose(1, 2); k = att.wk(h).view(2, 12, 4, 8).transpose(1, 2)
    max_score = (q @ k.transpose(-1, -2) / math.sqrt(8)).max().item()
assert nan_frac > 0 and not fixed_nan
report(name=N, verdict="buggy", harm="numeric", fix=FIX, output_nan_fraction=nan_frac, fixed_has_nan=fixed_nan, max_layer0_score=max_score,
       note="exp without max subtraction overflows to inf once scores exceed ~88; inf/inf gives NaN")
