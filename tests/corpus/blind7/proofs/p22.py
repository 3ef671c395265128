import torch
from _util import *
N = "c22_packed_docs_posids"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 4, 5, 8, 10], None).items():
    R.inv(f"logits <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
base, a, _ = run(N)
pos = mod.document_position_ids(a[1])
R.inv("position ids restart per document (mismatches)", float((pos[0] != torch.tensor([0, 1, 2, 3, 4, 0, 1, 2, 3, 0, 1, 2])).sum()), 0.0)
m, a, _ = fresh(N)
ids, docs = a
segs = [(0, 0, 5), (0, 5, 9), (0, 9, 12), (1, 0, 7), (1, 7, 12)]
worst = 0.0
with torch.no_grad():
    for b, s, e in segs:
        solo = m(ids[b:b + 1, s:e], torch.zeros(1, e - s, dtype=torch.long))
        worst = max(worst, md(base[b:b + 1, s:e], solo))
R.inv("each packed document == the document run alone", worst, 1e-6)
def mut(a, k): a[0][0, :5] = (a[0][0, :5] + 11) % 60
y, _, _ = run(N, mut)
R.inv("docs 1,2 of sample 0 unchanged when doc 0 tokens change", md(base[0, 5:], y[0, 5:]), 0.0)
R.done()
