import torch
from common import *

N = "annotated_decoder"
caus = causal_effect(N, vocab=(0, 30))
a, _ = default(N)
base = run(N)
a2 = clone(a); a2[0][:, 6] = (a2[0][:, 6] + 4) % 30
first = md(base[:, 0], run(N, a2)[:, 0])
report(N, caus > 1e-3 and first > 1e-3, causal_effect=caus, last_token_changes_first=first)
