from lib import *

NAME = "a10_radar_axial_transformer"


def mhsa_ref(m, x):
    n, l, dim = x.shape
    q, k, v = m.qkv(x).chunk(3, dim=-1)
    q, k, v = (t.view(n, l, m.heads, m.dh) for t in (q, k, v))
    s = torch.einsum("nihd,njhd->nhij", q, k) / math.sqrt(m.dh)
    o = torch.einsum("nhij,njhd->nihd", s.softmax(-1), v)
    return m.o(o.reshape(n, l, dim))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("return self.o(ctx.reshape(n, l, dim))", "return self.o(ctx.transpose(1, 2).reshape(n, l, dim))")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.layers[0].attn_h, mhsa_ref), module_ref(lambda m: m.layers[1].attn_w, mhsa_ref)),
        label=dict(expected=["head-merge"], line_sub="return self.o(ctx.reshape(n, l, dim))",
                   why="ctx is (n, heads, l, dh); reshaping it straight to (n, l, dim) without moving the head axis back next to dh mixes head and position entries, so each output position gets features of other positions."),
    )
