import torch
from common import *

N = "length_classifier"
a, k = default(N)
tok, L = a
base = run(N)
alone_full = run(N, [tok[2:].clone(), L[2:].clone()])
report(N, nan_frac(base[:2]) == 1.0, nan_frac_padded_samples=nan_frac(base[:2]), nan_frac_unpadded_sample=nan_frac(base[2:]),
       nan_frac_unpadded_sample_alone=nan_frac(alone_full), fully_masked_pad_query_rows=int((7 - L).sum()))
