import torch
from lib import *
N = "r72_efficient_vit"
FIX = [("        if self.prob == 0.0:", "        if not self.training or self.prob == 0.0:")]
d = determinism(N, n=4)
fd = determinism(fixed_name(N, FIX), n=4)
m, a, kw = build(N)
assert not m.training and d > 1e-3 and fd == 0
report(name=N, verdict="buggy", harm="random", fix=FIX, eval_pass_spread=d, fixed_eval_pass_spread=fd,
       note="token subset drawn with torch.randn on every forward, including eval")
