import torch
from _util import *
N = "c04_dit_text_xattn"
R = Report(N, "bug")
base, a, _ = run(N)
def mut(a, k):
    a[2][0, 5:] = torch.randn(3, 24) * 3
    a[2][1, 7:] = torch.randn(1, 24) * 3
y, _, _ = run(N, mut)
R.harm("output moves when only padded text tokens change (s0 pads 5.., s1 pad 7)", md(base, y))
m, a, _ = fresh(N)
blk = m.blocks[0]
with torch.no_grad():
    h = torch.randn(2, 8, 32)
    L = 8
    valid = torch.arange(L)[None] < a[3][:, None]
    _, w = blk.cross_attn(h, a[2], a[2], key_padding_mask=valid, need_weights=True)
R.harm("1 - max attention mass on valid text tokens, sample 0 (1.0 = all mass on pads)", 1.0 - w[0][:, :5].sum(-1).max().item())
R.done()
