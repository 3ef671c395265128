import torch
from common import *

N = "gpt_mini"
caus = causal_effect(N, vocab=(0, 64))
a, k = default(N)
base = run(N)
bat = md(base[1], run(N, [a[0][1:].clone()])[0])
# prefix run equals prefix of the full run
pre = md(base[:, :6], run(N, [a[0][:, :6].clone()]))
report(N, max(caus, bat, pre) < 1e-5, causal_effect=caus, batch=bat, prefix_consistency=pre)
