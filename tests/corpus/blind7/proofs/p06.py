import torch
from _util import *
N = "c06_video_factorized_st"
R = Report(N, "bug")
res = causal_probe(N, 0, 1, 1, [0, 1, 2], None)
for t, v in res.items():
    R.harm(f"frames <= {t} move when frames > {t} change", v)
# reference with the (b n) t d -> (b t) n d regrouping gives a frame-causal model
from einops import rearrange
m, a, _ = fresh(N)
def ref_forward(m, x):
    x = x + m.time_embed + m.space_embed
    for blk in m.blocks:
        B, T, Nn, D = x.shape
        h = rearrange(x, "b t n d -> (b n) t d")
        h = h + blk.temporal(blk.norm_t(h), causal=True)
        h = rearrange(h, "(b n) t d -> (b t) n d", b=B)
        h = h + blk.spatial(blk.norm_s(h))
        h = h + blk.ff(blk.norm_ff(h))
        x = rearrange(h, "(b t) n d -> b t n d", b=B)
    return m.norm(x)
with torch.no_grad():
    x = a[0]
    r0 = ref_forward(m, x)
    x2 = x.clone(); x2[:, 1:] = torch.randn_like(x2[:, 1:]) * 3
    r1 = ref_forward(m, x2)
R.inv("reference regrouping: frame 0 unaffected by frames 1..", md(r0[:, :1], r1[:, :1]), 1e-6)
R.harm("model differs from regrouped reference", md(call(m, a), r0))
R.done()
