import torch
from lib import *


def window_dep(N, W=4, T=12, layers=2):
    """Perturb one token at a time; record which output positions change (one forward per source position)."""
    base = run(N)
    dep = torch.zeros(T, T)
    for j in range(T):
        where = torch.zeros(2, T, dtype=torch.bool); where[:, j] = True
        o = run(N, lambda m_, a_, kw_, where=where: ([perturb_like(a_[0], where, seed=j, vocab=64)], kw_))
        dep[:, j] = (o - base).abs().amax(dim=(0, 2))
    return dep
