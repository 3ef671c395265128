import torch
from lib import *


def clip_probes(N):
    m, a, kw = build(N)
    text = a[1]
    base = run(N)
    def pimg(m_, a_, kw_):
        x = a_[0].clone(); x[1] += 3 * torch.randn(x[1].shape, generator=torch.Generator().manual_seed(1)); a_[0] = x; return a_, kw_
    def ptxt(m_, a_, kw_):
        x = a_[1].clone(); x[2, :3] = torch.tensor([5, 6, 7]); a_[1] = x; return a_, kw_
    def ppad(m_, a_, kw_):
        x = a_[1].clone()
        for i, eot in enumerate([6, 9, 3]):
            x[i, eot + 1:] = 11
        a_[1] = x; return a_, kw_
    oi, ot, op = run(N, pimg), run(N, ptxt), run(N, ppad)
    return dict(image1_perturb_other_rows=maxdiff(base[[0, 2]], oi[[0, 2]]), image1_perturb_own_row=maxdiff(base[1], oi[1]),
                text2_perturb_other_cols=maxdiff(base[:, :2], ot[:, :2]), text2_perturb_own_col=maxdiff(base[:, 2], ot[:, 2]),
                after_eot_perturb=maxdiff(base, op))
