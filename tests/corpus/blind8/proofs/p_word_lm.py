import torch
from common import *

N = "word_lm"
caus = causal_effect(N, time_dim=0, out_time_dim=0, vocab=(0, 40))
a, _ = default(N)
base = run(N)
bat = max(md(base[:, b], run(N, [a[0][:, b:b + 1].clone()])[:, 0]) for b in range(3))
report(N, max(caus, bat) < 1e-5, causal_effect=caus, batch=bat)
