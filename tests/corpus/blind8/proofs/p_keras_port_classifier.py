import torch
from common import *

N = "keras_port_classifier"
a, k = default(N)
x = a[0]
base = run(N)
alone = max(md(base[b], run(N, [x[b:b + 1].clone()])[0]) for b in range(3))
a2 = clone(a); a2[0][2] = (a2[0][2] + 13) % 40
cross = md(base[:2], run(N, a2)[:2])
# within a sample, tokens do not interact through attention: changing token 3 of sample 0 only changes
# the pooled output through its own position (no interaction with other positions); check with batch size 1
m, _, _ = build(N)
report(N, alone > 1e-3 and cross > 1e-3, alone_vs_batched=alone, other_sample_change_effect=cross)
