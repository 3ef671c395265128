import torch
from _util import *
N = "c30_alibi_decoder_a"
R = Report(N, "bug")
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6, 8], None).items():
    R.harm(f"logits <= {t} move when tokens > {t} change", v)
m, a, _ = fresh(N)
att = m.blocks[0][1]
x = m.blocks[0][0](m.embed(a[0]))
with torch.no_grad():
    B, T, D = x.shape
    q, k, v = att.qkv(x).view(B, T, 3, 4, 8).permute(2, 0, 3, 1, 4)
    i = torch.arange(T)[:, None]; j = torch.arange(T)[None]
    s = q @ k.transpose(-2, -1) / 8 ** 0.5 - att.slopes[:, None, None] * (i - j).clamp(min=0)
    p = s.masked_fill(j > i, 0.0).softmax(-1)
R.harm("attention mass on future keys, query 0 (mean over heads/batch)", p[..., 0, 1:].sum(-1).mean().item())
R.done()
