import torch
from lib import *


def perceiver_probes(N):
    m, a, kw = build(N)
    mask = kw["mask"]
    p = pad_probe(N, 0, ~mask)
    tr = max(maxdiff(run(N)[i:i+1], run(N, lambda m_, a_, kw_, i=i, L=L: ([a_[0][i:i+1, :L]], {"mask": mask[i:i+1, :L], "queries": kw_["queries"]}))) for i, L in [(0, 14), (2, 6)])
    return p, tr
