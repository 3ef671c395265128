import torch
from common import *

N = "spam_classifier"
m, a, k = build(N)
assert not m.training
o1 = m(*a); o2 = m(*a)
same_model = md(o1, o2)
r1 = seeded_run(N, 1); r2 = seeded_run(N, 2)
rebuilt = md(r1, r2)
# with the functional dropout disabled (p=0) two passes agree
def nodrop(model):
    for at in model.attn:
        at.dropout = 0.0
z1 = run(N, model_fn=nodrop); z2 = run(N, model_fn=nodrop)
report(N, same_model > 1e-3 and rebuilt > 1e-3 and md(z1, z2) < 1e-6, eval_pass_diff=same_model,
       rebuilt_diff_seed_diff=rebuilt, diff_with_p0=md(z1, z2))
