import math, torch
import torch.nn.functional as F
from common import *

N = "attention_from_scratch"
a, k = default(N)
x, mask = a
base = run(N)
res = {}
for s in (1, 10, 30):
    out = run(N, [x * s, mask.clone()])
    m, _, _ = build(N)
    at = m.attn
    xs = x * s
    B, T, D = xs.shape
    Q = (xs @ at.W_Q).reshape(B, T, 4, 8).transpose(1, 2)
    K = (xs @ at.W_K).reshape(B, T, 4, 8).transpose(1, 2)
    V = (xs @ at.W_V).reshape(B, T, 4, 8).transpose(1, 2)
    ref = (F.scaled_dot_product_attention(Q, K, V, attn_mask=mask.bool()[:, None, None, :]).transpose(1, 2).reshape(B, T, D) @ at.W_O)
    res[s] = (nan_frac(out), nan_frac(ref), md(at(xs, mask), ref))
report(N, res[1][2] < 1e-4 and res[30][0] > 0 and res[30][1] == 0,
       scale1_diff_vs_sdpa=res[1][2], nan_frac_out_x30=res[30][0], nan_frac_ref_x30=res[30][1],
       nan_frac_out_x10=res[10][0])
