import torch
from common import *

N = "decoder_block"
a, k = default(N)
x = a[0]
res = {}
for s in (1.0, 30.0):
    m, _, _ = build(N)
    at = m.attn
    xs = x * s
    ref = ref_attn(xs, xs, at.Wq, at.Wk, at.Wv, at.Wo, 4, causal=True)
    out = at(xs)
    res[s] = (md(out, ref), nan_frac(out), nan_frac(ref), nan_frac(run(N, [xs])))
caus = causal_effect(N)
report(N, res[1.0][0] < 1e-5 and res[30.0][1] > 0 and res[30.0][2] == 0, diff_vs_sdpa=res[1.0][0],
       nan_frac_attn_x30=res[30.0][1], nan_frac_ref_x30=res[30.0][2], nan_frac_model_x30=res[30.0][3], causal_effect=caus)
