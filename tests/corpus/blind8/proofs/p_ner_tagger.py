import torch
from common import *

N = "ner_tagger"
a, k = default(N)
base = run(N)
frac = nan_frac(base)
m, _, _ = build(N)
bias = a[1][:, None, None, :].float() * float("-inf")
report(N, frac > 0.5, nan_frac_output=frac, nan_frac_bias=nan_frac(bias),
       nan_frac_output_real_positions=nan_frac(base[~a[1]]))
