import torch
from common import *

N = "window_lm"
caus = causal_effect(N, vocab=(0, 40))
a, _ = default(N)
base = run(N)
a2 = clone(a); a2[0][:, 5] = (a2[0][:, 5] + 7) % 40
prev = md(base[:, 4], run(N, a2)[:, 4])
report(N, caus > 1e-3 and prev > 1e-3, causal_effect=caus, next_token_changes_current_logits=prev)
