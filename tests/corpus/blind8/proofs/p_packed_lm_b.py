import torch
from common import *

N = "packed_lm_b"
a, k = default(N)
ids, seg, pos = a
base = run(N)
worst = 0.0
for b in range(2):
    for s in seg[b].unique().tolist():
        if s < 0:
            continue
        idx = (seg[b] == s).nonzero().flatten()
        lo, hi = int(idx[0]), int(idx[-1]) + 1
        o = run(N, [ids[b:b + 1, lo:hi].clone(), torch.zeros(1, hi - lo, dtype=torch.long), pos[b:b + 1, lo:hi].clone()])
        worst = max(worst, md(base[b, lo:hi], o[0]))
caus = causal_effect(N, vocab=(1, 40))
a2 = clone(a); a2[0][1, 6:] = torch.tensor([30, 31, 32])
pad = md(base[1, :6], run(N, a2)[1, :6])
report(N, max(worst, caus, pad) < 1e-5 and nan_frac(base) == 0, per_document_vs_alone=worst, causal_effect=caus, pad_content=pad)
