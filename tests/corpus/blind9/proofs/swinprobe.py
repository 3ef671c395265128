import torch
from lib import *


def dep_map(name, out_tok):
    """For each 4x4 input patch (8x8 grid), max change of output token out_tok when that patch is perturbed."""
    base = run(name)
    dm = torch.zeros(8, 8)
    for i in range(8):
        for j in range(8):
            def edit(m_, a_, kw_, i=i, j=j):
                x = a_[0].clone()
                g = torch.Generator().manual_seed(i * 8 + j)
                x[:, :, 4 * i:4 * i + 4, 4 * j:4 * j + 4] += 3 * torch.randn(x[:, :, 4 * i:4 * i + 4, 4 * j:4 * j + 4].shape, generator=g)
                a_[0] = x
                return a_, kw_
            o = run(name, edit)
            dm[i, j] = (o[:, out_tok] - base[:, out_tok]).abs().max()
    return dm
