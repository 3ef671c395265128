import torch
from common import *

N = "story_lm"
caus = causal_effect(N, vocab=(1, 45))
a, k = default(N)
ids = a[0]
base = run(N)
trim = md(base[1, :4], run(N, [ids[1:, :4].clone()])[0])
bat = md(base[0], run(N, [ids[:1].clone()])[0])
report(N, max(caus, trim, bat) < 1e-5, causal_effect=caus, trim=trim, batch=bat)
