import math
import torch
from _util import *
N = "c08_diff_attention"
R = Report(N, "correct")
for t, v in causal_probe(N, 0, 1, 1, [0, 2, 5, 7], None).items():
    R.inv(f"outputs <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
m, a, _ = fresh(N)
x = a[0]
base = call(m, a)
at = m.attn
with torch.no_grad():
    h = m.norm1(x)
    B, T, E = h.shape
    Q = at.q_proj(h); K = at.k_proj(h); V = at.v_proj(h)
    lam = math.exp((at.lambda_q1 * at.lambda_k1).sum().item()) - math.exp((at.lambda_q2 * at.lambda_k2).sum().item()) + at.lambda_init
    outs = []
    causal = torch.ones(T, T).tril().bool()
    for i in range(2):
        q1 = Q[..., (2 * i) * 8:(2 * i + 1) * 8]; q2 = Q[..., (2 * i + 1) * 8:(2 * i + 2) * 8]
        k1 = K[..., (2 * i) * 8:(2 * i + 1) * 8]; k2 = K[..., (2 * i + 1) * 8:(2 * i + 2) * 8]
        v = V[..., i * 16:(i + 1) * 16]
        def sm(a_, b_):
            s = a_ @ b_.transpose(-1, -2) / math.sqrt(8)
            return s.masked_fill(~causal, float("-inf")).softmax(-1)
        A = sm(q1, k1) - lam * sm(q2, k2)
        o = A @ v
        o = o / torch.sqrt(o.pow(2).mean(-1, keepdim=True) + 1e-5) * at.subln.weight * (1 - at.lambda_init)
        outs.append(o)
    y = x + at.out_proj(torch.cat(outs, -1))
    ref = y + m.ffn(m.norm2(y))
R.inv("matches per-head differential-attention reference", md(base, ref), 1e-5)
R.done()
