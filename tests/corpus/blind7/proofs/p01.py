import torch
from _util import *

N = "c01_conformer_relpos_mhsa"
R = Report(N, "correct")
mod = load(N)
# rel_shift must place relative position (i - j) at [i, j]: compare with explicit gather.
T = 10
x = torch.randn(2, 3, T, 2 * T - 1)
got = mod.RelPositionMHSA.rel_shift(x)
i = torch.arange(T)[:, None]; j = torch.arange(T)[None, :]
ref = x[:, :, torch.arange(T)[:, None], (T - 1) - (i - j)]
R.inv("rel_shift vs explicit gather of index T-1-(i-j)", md(got, ref), 0.0)
# pos_emb row k encodes relative position T-1-k
pe = mod.RelPositionalEncoding(32)(T)
ref_pe = mod.RelPositionalEncoding(32).pe[63 - 9: 63 + 10]
R.inv("pos table slice centred", md(pe, ref_pe), 0.0)
base, a, _ = run(N)
L = a[1]
def mut(a, k): perturb_tail(a[0][1:2], 1, 6, scale=10.0)
y, _, _ = run(N, mut)
R.inv("real frames of sample 1 after changing its padded frames", md(base[1, :6], y[1, :6]))
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
# full reference: explicit per-(i,j) relative attention
m, a, _ = fresh(N)
x, lengths = a
with torch.no_grad():
    att = m.mha
    h = x + 0.5 * m.ff1(x)
    hn = m.norm_mha(h)
    B, T, D = hn.shape
    q = att.linear_q(hn).view(B, T, 4, 8); k = att.linear_k(hn).view(B, T, 4, 8); v = att.linear_v(hn).view(B, T, 4, 8)
    pos = m.pos.pe[63 - 9: 63 + 10]
    p = att.linear_pos(pos).view(-1, 4, 8)
    sc = torch.empty(B, 4, T, T)
    for ii in range(T):
        for jj in range(T):
            r = (T - 1) - (ii - jj)
            sc[:, :, ii, jj] = ((q[:, ii] + att.pos_bias_u) * k[:, jj]).sum(-1) + ((q[:, ii] + att.pos_bias_v) * p[r]).sum(-1)
    sc = sc / 8 ** 0.5
    msk = torch.arange(T)[None] < lengths[:, None]
    sc = sc.masked_fill(~msk[:, None, None], float("-inf"))
    o = torch.einsum("bhij,bjhd->bihd", sc.softmax(-1), v).reshape(B, T, D)
    h = h + att.linear_out(o)
    h = h + 0.5 * m.ff2(h)
    ref = m.norm_out(h) * msk[..., None]
R.inv("matches explicit relative-position reference", md(base, ref), 1e-5)
R.done()
