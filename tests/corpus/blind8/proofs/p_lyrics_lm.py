import torch
from common import *

N = "lyrics_lm"
caus = causal_effect(N, vocab=(0, 36))
a, _ = default(N)
base = run(N)
a2 = clone(a); a2[0][:, 6] = (a2[0][:, 6] + 9) % 36
first = md(base[:, 0], run(N, a2)[:, 0])
# past tokens do not influence the last position at layer level: change token 0, last logits
a3 = clone(a); a3[0][:, 0] = (a3[0][:, 0] + 9) % 36
report(N, caus > 1e-3 and first > 1e-3, causal_effect=caus, last_token_changes_first=first)
