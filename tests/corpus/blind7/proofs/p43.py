import torch
from _util import *
N = "c43_conformer_conv_module_a"
R = Report(N, "bug")
R.harm("batch: sample 0 moves when only sample 1 changes", batch_probe(N, [0]))
m, a, _ = fresh(N)
x, L = a
base = call(m, a)
with torch.no_grad():
    solo0 = m(x[:1], L[:1])
R.harm("sample 0 in batch differs from sample 0 alone", md(base[0], solo0[0]))
R.done()
