import torch
from _util import *
N = "c07_mla_decoupled_rope"
R = Report(N, "correct")
res = causal_probe(N, 0, 1, 1, [0, 3, 6, 8], None)
for t, v in res.items():
    R.inv(f"outputs <= {t} unchanged when tokens > {t} change", v)
R.inv("batch: sample 0 after changing sample 1", batch_probe(N, [0]))
# absorbed-weight reference: q_nope W_uk^T . c_kv  (DeepSeek-V2 inference form)
m, a, _ = fresh(N)
x = a[0]
base = call(m, a)
att = m.attn
mod = load(N)
with torch.no_grad():
    h = m.attn_norm(x)
    B, T, _ = h.shape
    q = att.wq_b(att.q_norm(att.wq_a(h))).view(B, T, 4, 24)
    q_nope, q_pe = q[..., :16], q[..., 16:]
    c_kv, k_pe = att.wkv_a(h).split([16, 8], -1)
    c_kv = att.kv_norm(c_kv)
    W = att.wkv_b.weight.view(4, 32, 16)
    W_uk, W_uv = W[:, :16], W[:, 16:]
    q_abs = torch.einsum("bthd,hdc->bthc", q_nope, W_uk)
    cos, sin = mod.rope_cache(T, 8)
    # independent rope: rotate pairs (i, i+4) by angle pos * base^(-2i/8)
    inv = 10000.0 ** (-torch.arange(0, 8, 2).float() / 8)
    ang = torch.arange(T).float()[:, None] * inv
    def rot(z, ang):
        z1, z2 = z[..., :4], z[..., 4:]
        c, s = ang.cos(), ang.sin()
        return torch.cat([z1 * c - z2 * s, z1 * s + z2 * c], -1)
    qp = rot(q_pe, ang[:, None]); kp = rot(k_pe, ang)
    s = (torch.einsum("bthc,bsc->bhts", q_abs, c_kv) + torch.einsum("bthd,bsd->bhts", qp, kp)) / 24 ** 0.5
    s = s.masked_fill(torch.ones(T, T, dtype=torch.bool).triu(1), float("-inf"))
    o_lat = torch.einsum("bhts,bsc->bthc", s.softmax(-1), c_kv)
    o = torch.einsum("bthc,hvc->bthv", o_lat, W_uv).reshape(B, T, 64)
    xr = x + att.wo(o)
    hh = m.ffn_norm(xr)
    ref = xr + m.w2(torch.nn.functional.silu(m.w1(hh)) * m.w3(hh))
R.inv("matches absorbed-latent MLA reference", md(base, ref), 1e-5)
R.done()
