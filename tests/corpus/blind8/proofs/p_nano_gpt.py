import torch
from common import *

N = "nano_gpt"
eff = causal_effect(N, vocab=(0, 50))
# specifically: changing token t+1 changes logits at t
a, k = default(N)
base = run(N)
a2 = clone(a); a2[0][:, 4] = (a2[0][:, 4] + 7) % 50
o2 = run(N, a2)
one_ahead = md(base[:, 3], o2[:, 3])
two_ahead = md(base[:, 2], o2[:, 2])
report(N, eff > 1e-3 and one_ahead > 1e-3, causal_effect=eff,
       next_token_effect=one_ahead, two_ahead_effect=two_ahead)
