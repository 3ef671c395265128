"""Generic cross-checks over every file: determinism of two eval passes and batch independence
(changing every batched input of sample 1 must not move sample 0, and vice versa).
Used to make sure each buggy file carries only its intended harm and correct files have none."""
import glob
import os
import torch
from _util import *

out = {}
for path in sorted(glob.glob(os.path.join(ROOT, "c[0-9][0-9]_*.py"))):
    name = os.path.basename(path)[:-3]
    m, a, k = fresh(name)
    torch.manual_seed(1); y1 = call(m, a, k)
    torch.manual_seed(2); y2 = call(m, a, k)
    det = md(y1, y2)
    B = y1.shape[0]
    worst = 0.0
    for src, dst in ((1, 0), (0, 1)):
        m2, a2, k2 = fresh(name)
        base = call(m2, a2, k2)
        g = torch.Generator().manual_seed(11)
        for t in a2:
            if not torch.is_tensor(t) or t.dim() == 0 or t.shape[0] != B:
                continue
            if t.dtype.is_floating_point and t.dim() >= 2:
                t[src] = torch.randn(t[src].shape, generator=g) * 2
            elif t.dtype in (torch.long,) and t.dim() >= 2 and name not in ("c22_packed_docs_posids", "c24_packed_docs_rope"):
                t[src] = torch.randint(0, int(t.max()) + 1, t[src].shape, generator=g)
        m3, _, _ = fresh(name)
        torch.manual_seed(1)
        y = call(m3, a2, k2)
        m4, a4, k4 = fresh(name)
        torch.manual_seed(1)
        base = call(m4, a4, k4)
        worst = max(worst, md(base[dst], y[dst]))
    out[name] = (det, worst)
    print(f"{name:40s} nondeterminism={det:.2e} batch_leak={worst:.2e}")
