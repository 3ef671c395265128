import torch
from common import *

N = "next_token_model"
a, k = default(N)
base = run(N)
T = 8
keep = torch.tril(torch.ones(T, T), diagonal=-1)
report(N, nan_frac(base) > 0, nan_frac_output=nan_frac(base), nan_frac_position0=nan_frac(base[:, 0]),
       query_rows_without_keys=int((keep.sum(-1) == 0).sum()), self_attention_allowed=bool(keep.diagonal().any()))
