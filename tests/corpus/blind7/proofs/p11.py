import torch
from _util import *
N = "c11_moe_capacity"
R = Report(N, "bug")
base, a, _ = run(N)
def mut(a, k): a[0][0] = torch.randn(8, 32, generator=torch.Generator().manual_seed(5)) * 2
y, _, _ = run(N, mut)
R.harm("sample 1 output moves when only sample 0 changes", md(base[1], y[1]))
# per-sample reference: run each sample alone (capacity counted within the sequence)
m, a, _ = fresh(N)
with torch.no_grad():
    solo = torch.cat([m(a[0][i:i + 1]) for i in range(2)])
R.inv("sample 0 equals its solo run", md(base[0], solo[0]), 1e-6)
R.harm("sample 1 differs from its solo run", md(base[1], solo[1]))
# count dropped tokens
with torch.no_grad():
    moe = m.moe
    h = a[0] + m.attn(m.norm1(a[0]), m.norm1(a[0]), m.norm1(a[0]), attn_mask=torch.ones(8, 8, dtype=torch.bool).triu(1), need_weights=False)[0]
    out = moe(m.norm2(h))
    dropped = (out.abs().sum(-1) == 0).sum(-1)
print("dropped tokens per sample in batch:", dropped.tolist())
R.done()
