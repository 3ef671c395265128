import torch
from _util import *
N = "c16_blockwise_encoder_attn"
R = Report(N, "bug")
def stable(q, k, v, *a):
    s = (q @ k.transpose(-2, -1)) * q.shape[-1] ** -0.5
    return s.softmax(-1) @ v
mod = load(N)
g = torch.Generator().manual_seed(0)
q, k, v = (torch.randn(2, 4, 11, 8, generator=g) for _ in range(3))
R.inv("normal scale: chunked == softmax reference", md(mod.chunked_attention(q, k, v, 4, 3), stable(q, k, v)), 1e-6)
big = mod.chunked_attention(q * 12, k * 12, v, 4, 3)
R.harm("q,k x12 (max logit %.0f): non-finite outputs (fraction)" % ((q * 12) @ (k * 12).transpose(-2, -1) / 8 ** 0.5).max(),
       float((~torch.isfinite(big)).float().mean()), 0.0)
R.inv("q,k x12: stable reference stays finite (count non-finite)", float((~torch.isfinite(stable(q * 12, k * 12, v))).sum()), 0.0)
# whole model at an input scale where the logits get large
model, args, _ = fresh(N)
x = args[0]
for K in (1.0, 4.0, 8.0):
    mod2 = load(N)
    m2 = mod2.build()[0]
    with torch.no_grad():
        y_bug = m2(x * K)
        mod2.chunked_attention = stable
        y_ref = m2(x * K)
    print(f"input x{K}: nonfinite(model)={int((~torch.isfinite(y_bug)).sum())} nonfinite(stable ref)={int((~torch.isfinite(y_ref)).sum())} maxdiff={md(y_bug, y_ref):.3e}")
    if K == 1.0:
        R.inv("model at build scale == stable reference", md(y_bug, y_ref), 1e-5)
    if K == 8.0:
        R.harm("model at input x8: fraction of outputs non-finite", float((~torch.isfinite(y_bug)).float().mean()), 0.0)
        R.inv("stable reference at input x8: non-finite count", float((~torch.isfinite(y_ref)).sum()), 0.0)
R.done()
