import torch
from lib import *


def detr_probes(N):
    m, a, kw = build(N)
    pm = a[1]
    L = lambda o: o["pred_logits"]
    base = run(N, pick=L)
    def pert(m_, a_, kw_):
        x = a_[0].clone(); g = torch.Generator().manual_seed(3)
        x = torch.where(pm[:, None], 5 * torch.randn(x.shape, generator=g), x); a_[0] = x; return a_, kw_
    pad = maxdiff(base, run(N, pert, pick=L))
    def crop(m_, a_, kw_):
        return [a_[0][1:, :, :24, :24], a_[1][1:, :24, :24]], kw_
    crop_d = None
    try:
        crop_d = maxdiff(base[1:], run(N, crop, pick=L))
    except Exception as e:
        crop_d = str(e)[:80]
    return pad, crop_d
