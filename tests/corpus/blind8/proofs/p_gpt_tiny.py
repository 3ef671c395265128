import torch
from common import *

N = "gpt_tiny"
caus = causal_effect(N, vocab=(0, 40))
a, _ = default(N)
base = run(N)
bat = max(md(base[b], run(N, [a[0][b:b + 1].clone()])[0]) for b in range(3))
pre = md(base[:, :5], run(N, [a[0][:, :5].clone()]))
report(N, max(caus, bat, pre) < 1e-5, causal_effect=caus, batch=bat, prefix_consistency=pre)
