import torch
from lib import *


def pooled_probes(N, vocab, cases):
    """Pooled (B, ...) outputs: pad-content perturbation with the mask fixed, truncation to real length, extra padding."""
    m, a, kw = build(N)
    am = a[1]
    p = pad_probe(N, 0, am == 0, vocab=vocab)
    tr = max(maxdiff(run(N)[i:i+1], run(N, lambda m_, a_, kw_, i=i, L=L: ([a_[0][i:i+1, :L], a_[1][i:i+1, :L]], kw_))) for i, L in cases)
    def ext(m_, a_, kw_):
        B = a_[0].shape[0]
        return [torch.cat([a_[0], torch.zeros(B, 2, dtype=a_[0].dtype)], 1), torch.cat([a_[1], torch.zeros(B, 2, dtype=a_[1].dtype)], 1)], kw_
    e = maxdiff(run(N), run(N, ext))
    return p, tr, e
