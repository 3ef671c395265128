import torch
from _util import *
N = "c20_window_attn_sinks"
R = Report(N, "bug")
mod = load(N)
res = causal_probe(N, 0, 1, 1, [0], None)
R.harm("logits at t=0 move when tokens 1.. change", res[0])
def mut(a, k): a[0][:, 1] = (a[0][:, 1] + 7) % 50
base, _, _ = run(N)
y, _, _ = run(N, mut)
R.harm("logits at t=0 move when only token 1 (a sink) changes", md(base[:, 0], y[:, 0]))
M = mod.sink_window_mask(12, 4, 2)
R.harm("mask entries with j > i allowed (count)", float((M & torch.ones(12, 12, dtype=torch.bool).triu(1)).sum()), 0.0)
R.done()
