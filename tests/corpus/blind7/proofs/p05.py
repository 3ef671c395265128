import torch
import torch.nn.functional as F
from _util import *
N = "c05_timestep_text_xattn"
R = Report(N, "correct")
base, a, _ = run(N)
def mut(a, k):
    a[2][0, 1:] = torch.randn(6, 24) * 5
    a[2][1, 5:] = torch.randn(2, 24) * 5
y, _, _ = run(N, mut)
R.inv("padded text tokens do not move output", md(base, y))
R.inv("batch: sample 0 after changing sample 1 feat", batch_probe(N, [0]))
R.inv("batch: sample 0 after changing sample 1 ctx", batch_probe(N, [2]))
mod = load(N)
t = torch.tensor([3.0, 250.0])
e = mod.timestep_embedding(t, 33)
half = 16
fr = torch.tensor([10000 ** (-i / half) for i in range(half)])
ref = torch.cat([torch.cos(t[:, None] * fr), torch.sin(t[:, None] * fr), torch.zeros(2, 1)], -1)
R.inv("timestep embedding matches formula", md(e, ref), 1e-4)
# reference attention with explicit -inf masked softmax and 1/sqrt(d)
m, a, _ = fresh(N)
q = torch.randn(2, 9, 32); ctx = a[2]
attn = m.attn2
with torch.no_grad():
    mask = torch.arange(7)[None] < a[3][:, None]
    out = attn(q, ctx, mask)
    Q = attn.to_q(q).view(2, 9, 4, 8); K = attn.to_k(ctx).view(2, 7, 4, 8); V = attn.to_v(ctx).view(2, 7, 4, 8)
    s = torch.einsum("bihd,bjhd->bhij", Q, K) / 8 ** 0.5
    s = s.masked_fill(~mask[:, None, None], float("-inf"))
    ref = attn.to_out(torch.einsum("bhij,bjhd->bihd", s.softmax(-1), V).reshape(2, 9, 32))
R.inv("cross-attention matches masked reference", md(out, ref), 1e-6)
R.done()
