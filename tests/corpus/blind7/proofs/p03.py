import torch
from _util import *
N = "c03_dit_adaln_block"
R = Report(N, "correct")
R.inv("batch: sample 0 after changing sample 1 latents", batch_probe(N, [0]))
R.inv("batch: sample 0 after changing sample 1 timestep", batch_probe(N, [1]))
# reference: manual attention with explicit 1/sqrt(head_dim) and manual LayerNorm (biased var)
m, a, _ = fresh(N)
x, t = a
base = call(m, a)
def ln(z, eps=1e-6):
    mu = z.mean(-1, keepdim=True); var = ((z - mu) ** 2).mean(-1, keepdim=True)
    return (z - mu) / torch.sqrt(var + eps)
with torch.no_grad():
    h = m.x_embed(x) + m.pos_embed
    c = m.t_embed(t)
    for blk in m.blocks:
        p = blk.adaLN_modulation(c).chunk(6, 1)
        z = ln(h) * (1 + p[1][:, None]) + p[0][:, None]
        B, Nn, C = z.shape
        qkv = blk.attn.qkv(z).view(B, Nn, 3, 4, 8)
        q, k, v = qkv[:, :, 0], qkv[:, :, 1], qkv[:, :, 2]
        s = torch.einsum("bihd,bjhd->bhij", q, k) / 8 ** 0.5
        o = torch.einsum("bhij,bjhd->bihd", s.softmax(-1), v).reshape(B, Nn, C)
        h = h + p[2][:, None] * blk.attn.proj(o)
        z = ln(h) * (1 + p[4][:, None]) + p[3][:, None]
        h = h + p[5][:, None] * blk.mlp(z)
    sh, sc = m.final.adaLN_modulation(c).chunk(2, 1)
    ref = m.final.linear(ln(h) * (1 + sc[:, None]) + sh[:, None])
R.inv("matches manual DiT reference", md(base, ref), 1e-5)
R.inv("two eval passes identical", md(call(m, a), call(m, a)), 0.0)
R.done()
