import torch
from _util import *
N = "c13_retrieval_xattn"
R = Report(N, "correct")
base, a, _ = run(N)
def mut(a, k):
    nm = a[2]
    a[1][~nm] = torch.randn(int((~nm).sum()), 24) * 10
y, _, _ = run(N, mut)
R.inv("padded neighbour tokens do not move output", md(base, y))
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6], None).items():
    R.inv(f"outputs <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1 hidden", batch_probe(N, [0]))
R.inv("batch: sample 0 after changing sample 1 neighbours", batch_probe(N, [1]))
def mut2(a, k): a[1][1, 0, 0] += torch.randn(24)
y2, _, _ = run(N, mut2)
R.harm("sanity: a valid neighbour token does move output", md(base[1], y2[1]))
R.done()
