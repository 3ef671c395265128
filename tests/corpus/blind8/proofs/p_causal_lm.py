import torch
from common import *

N = "causal_lm"
caus = causal_effect(N, vocab=(0, 48))
a, _ = default(N)
base = run(N)
a2 = clone(a); a2[0][:, -1] = (a2[0][:, -1] + 5) % 48
first = md(base[:, 0], run(N, a2)[:, 0])
# attention rows do not sum to one (they sum over queries instead)
m, _, _ = build(N)
report(N, caus > 1e-3 and first > 1e-3, causal_effect=caus, last_token_changes_first_logits=first)
