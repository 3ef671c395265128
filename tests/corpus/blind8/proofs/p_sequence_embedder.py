import torch
from common import *

N = "sequence_embedder"
a, k = default(N)
x = a[0]
base = run(N)
alone = max(md(base[b], run(N, [x[b:b + 1].clone()])[0]) for b in range(3))
a2 = clone(a); a2[0][2] = (a2[0][2] + 11) % 40
cross = md(base[:2], run(N, a2)[:2])
report(N, alone > 1e-3 and cross > 1e-3, alone_vs_batched=alone, other_sample_change_effect=cross)
