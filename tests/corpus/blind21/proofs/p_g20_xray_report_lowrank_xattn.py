from lib import *

NAME = "g20_xray_report_lowrank_xattn"


def xattn_ref(sub, x, memory):
    B, T, _ = x.shape
    S = memory.size(1)
    q = sub.q(x).view(B, T, sub.heads, -1).transpose(1, 2)
    k = sub.k(memory).view(B, S, sub.heads, -1).transpose(1, 2)
    v = sub.v(memory).view(B, S, sub.heads, -1).transpose(1, 2)
    o = F.scaled_dot_product_attention(q, k, v)          # default scale 1/sqrt(q.size(-1)) = 1/sqrt(8)
    return sub.o(o.transpose(1, 2).reshape(B, T, -1))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 6), 1, 100), upto(6)),
            "padding": (perturb(1, where_eq(1, 0), 1, 100), lambda o, a, k: o[a[1] != 0]),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 1, 100)), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.layers[0].cross, xattn_ref), module_ref(lambda m: m.layers[1].cross, xattn_ref)),
        note="ref = SDPA with its default scale, 1/sqrt of the query/key head width (8), not of the value head width (16)",
        label=dict(line_sub="self.scale = self.qk_head_dim ** -0.5",
                   why="The contracted size of the query-key product is the query/key head width (8), which differs from the value head width (dim // heads = 16); scaling by qk_head_dim ** -0.5 is exactly 1/sqrt(d_k). The self-attention is causal via SDPA, dropout is gated by self.training, and right-padded report tokens only follow real ones."),
    )
