import torch
from common import *

N = "decoder_stack"
a, k = default(N)
tgt, mem, mkpm = a
base = run(N)
# memory is an unordered set for cross-attention: permuting memory (with its mask) must not matter
perm = torch.tensor([3, 1, 0, 2, 5, 4])
a2 = [tgt.clone(), mem[:, perm].clone(), mkpm[:, perm].clone()]
a2[2][1] = torch.tensor([False, False, False, False, True, True])[perm]
memperm = md(base, run(N, a2))
# decoder output at position t depends directly on memory[t]
a3 = clone(a); a3[1][0, 2] += 3.0
direct = md(base[0, 2], run(N, a3)[0, 2])
# a memory of a different length than the target crashes
try:
    run(N, [tgt.clone(), torch.randn(2, 5, 32), torch.zeros(2, 5, dtype=torch.bool)])
    crash = "no error"
except RuntimeError as e:
    crash = str(e).split("\n")[0][:120]
report(N, memperm > 1e-3 and crash != "no error", memory_permutation_effect=memperm, memory_pos2_change_effect_on_tgt_pos2=direct, S_ne_T=crash)
