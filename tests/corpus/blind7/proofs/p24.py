import torch
from _util import *
N = "c24_packed_docs_rope"
R = Report(N, "correct")
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 4, 8, 10], None).items():
    R.inv(f"logits <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
segs = [(0, 0, 4), (0, 4, 9), (0, 9, 12), (1, 0, 6), (1, 6, 12)]
for dt in (torch.float32, torch.float64):
    m, a, _ = fresh(N)
    m = m.to(dt)
    ids, seg = a
    worst = 0.0
    with torch.no_grad():
        base = m(ids, seg)
        for b, s, e in segs:
            solo = m(ids[b:b + 1, s:e], torch.zeros(1, e - s, dtype=torch.long))
            worst = max(worst, md(base[b:b + 1, s:e], solo))
    R.inv(f"{dt}: each packed doc (global rope positions) == doc alone from position 0", worst, 1e-5 if dt == torch.float32 else 1e-12)
R.done()
