import torch
from _util import *
N = "c15_blockwise_causal_attn"
R = Report(N, "correct")
mod = load(N)
for t, v in causal_probe(N, 0, 1, 1, [0, 4, 5, 9, 10], None).items():
    R.inv(f"outputs <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
def ref_attn(q, k, v):
    T = q.shape[2]
    s = (q.double() @ k.double().transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    return (s.softmax(-1) @ v.double()).float()
g = torch.Generator().manual_seed(0)
q, k, v = (torch.randn(2, 4, 12, 8, generator=g) for _ in range(3))
for bs in (1, 3, 5, 12):
    R.inv(f"blockwise (block {bs}) == full causal softmax", md(mod.blockwise_causal_attention(q, k, v, bs), ref_attn(q, k, v)), 1e-6)
R.inv("large logits (q,k x30): finite and == reference", md(mod.blockwise_causal_attention(q * 30, k * 30, v, 5), ref_attn(q * 30, k * 30, v)), 1e-4)
m, a, _ = fresh(N)
x = a[0]
with torch.no_grad():
    B, T, D = x.shape
    qq, kk, vv = m.qkv(m.norm(x)).view(B, T, 3, 4, 8).permute(2, 0, 3, 1, 4)
    ref = x + m.proj(ref_attn(qq, kk, vv).transpose(1, 2).reshape(B, T, D))
R.inv("model == full-attention reference", md(call(m, a), ref), 1e-6)
R.done()
