import torch
from lib import *
N = "r24_gpt_story"
FIX = [("att = F.dropout(att, p=self.dropout)", "att = F.dropout(att, p=self.dropout, training=self.training)")]
d = determinism(N)
m, a, kw = build(N)
assert not m.training
mf = load_patched(N, FIX).build()
with torch.no_grad():
    fd = maxdiff(mf[0](*mf[1]), mf[0](*mf[1]))
tw, twr = twin_diff(N, FIX)
assert d > 1e-2 and fd == 0
report(name=N, verdict="buggy", harm="random", fix=FIX, eval_two_pass_diff=d, fixed_two_pass_diff=fd, fixed_twin_maxdiff=tw,
       note="functional dropout defaults to training=True, so attention dropout stays active after .eval()")
