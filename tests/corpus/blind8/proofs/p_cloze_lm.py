import torch
from common import *

N = "cloze_lm"
m, a, _ = build(N)
o1 = m(*a); o2 = m(*a)
same_model = md(o1, o2)
r1 = seeded_run(N, 1); r2 = seeded_run(N, 2)
rebuilt = md(r1, r2)
report(N, same_model > 1e-3 and rebuilt > 1e-3, eval_pass_diff=same_model, rebuilt_diff_seed_diff=rebuilt)
