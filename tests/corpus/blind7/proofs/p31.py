import torch
from _util import *
N = "c31_alibi_decoder_b"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 3, 6, 8], None).items():
    R.inv(f"logits <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
# key-position bias slope*j == standard ALiBi -slope*(i-j) up to a per-row constant
m, a, _ = fresh(N)
att = m.blocks[0][1]
x = torch.randn(2, 10, 32)
T = 10
with torch.no_grad():
    alibi = mod.build_alibi_tensor(torch.ones(2, T, dtype=torch.long), 4, torch.float32)
    cm = torch.ones(T, T, dtype=torch.bool).triu(1)
    y = att(x, alibi, cm)
    slopes = torch.tensor([2 ** (-8 * (h + 1) / 4) for h in range(4)])
    fused = att.query_key_value(x).view(2, T, 4, 3, 8)
    q, k, v = (fused[..., c, :].transpose(1, 2) for c in range(3))
    i = torch.arange(T)[:, None]; j = torch.arange(T)[None]
    s = q @ k.transpose(-1, -2) / 8 ** 0.5 - slopes[:, None, None] * (i - j)
    s = s.masked_fill(j > i, float("-inf"))
    ref = att.dense((s.softmax(-1) @ v).transpose(1, 2).reshape(2, T, 32))
R.inv("attention == reference ALiBi with -m*(i-j) and -inf future mask", md(y, ref), 1e-6)
R.inv("slopes == 2^(-8h/H)", md(alibi[0, :, 0, 1], slopes), 1e-7)
R.done()
