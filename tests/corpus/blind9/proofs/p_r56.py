import torch
from lib import *
N = "r56_fast_gpt"
FIX = [("dropout_p=self.dropout, is_causal=True", "dropout_p=self.dropout if self.training else 0, is_causal=True")]
d = determinism(N)
fd = determinism(fixed_name(N, FIX))
m, a, kw = build(N)
assert not m.training and d > 1e-2 and fd == 0
report(name=N, verdict="buggy", harm="random", fix=FIX, eval_two_pass_diff=d, fixed_two_pass_diff=fd,
       note="SDPA dropout_p is applied whenever nonzero; the module's eval flag is not consulted")
