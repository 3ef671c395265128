import torch
from common import *

N = "sdpa_lm"
caus = causal_effect(N, vocab=(0, 50))
a, _ = default(N)
base = run(N)
a2 = clone(a); a2[0][:, 8] = (a2[0][:, 8] + 6) % 50
first = md(base[:, 0], run(N, a2)[:, 0])
a3 = clone(a); a3[0][:, 0] = (a3[0][:, 0] + 6) % 50
last_from_first = md(base[:, 8], run(N, a3)[:, 8])
report(N, caus > 1e-3 and first > 1e-3, causal_effect=caus, last_token_changes_first=first,
       first_token_changes_last=last_from_first)
