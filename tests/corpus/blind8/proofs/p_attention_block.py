import torch
from common import *

N = "attention_block"
a, k = default(N)
x, mask = a
m, _, _ = build(N)
at = m.attn
res = {}
for s in (1.0, 100.0):
    xs = x * s
    ref = ref_attn(xs, xs, at.Wq, at.Wk, at.Wv, at.Wo, 4, keep=mask[:, None, None, :])
    out = at(xs, mask)
    res[s] = (md(out, ref) / max(ref.abs().max().item(), 1.0), nan_frac(out))
base = run(N)
a2 = clone(a); a2[0][1, 4:] = torch.randn(2, 32) * 10
pad = md(base[1, :4], run(N, a2)[1, :4])
report(N, res[1.0][0] < 1e-5 and res[100.0][0] < 1e-5 and res[100.0][1] == 0 and pad < 1e-5,
       rel_diff_vs_sdpa=res[1.0][0], rel_diff_vs_sdpa_x100=res[100.0][0], nan_frac_x100=res[100.0][1], pad_content=pad)
