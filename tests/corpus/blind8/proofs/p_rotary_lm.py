import torch
from common import *

N = "rotary_lm"
caus = causal_effect(N, vocab=(0, 48))
a, _ = default(N)
base = run(N)
pre = md(base[:, :5], run(N, [a[0][:, :5].clone()]))
bat = md(base[1], run(N, [a[0][1:].clone()])[0])
report(N, max(caus, pre, bat) < 1e-5, causal_effect=caus, prefix_consistency=pre, batch=bat)
