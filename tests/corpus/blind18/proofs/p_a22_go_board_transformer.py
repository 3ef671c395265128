from lib import *

NAME = "a22_go_board_transformer"


def attn_ref(m, x):
    B, N, _ = x.shape
    q, k, v = m.qkv(x).chunk(3, -1)
    q, k, v = (t.view(B, N, m.n_heads, m.head_dim).transpose(1, 2) for t in (q, k, v))
    o = F.scaled_dot_product_attention(q, k, v)
    return m.proj(o.transpose(1, 2).reshape(B, N, m.dim))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("(1.0 / math.sqrt(self.dim))", "(1.0 / math.sqrt(self.head_dim))")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.layers[0][1], attn_ref), module_ref(lambda m: m.layers[1][1], attn_ref)),
        label=dict(expected=["scale-factor"], line_sub="attn = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.dim))",
                   why="The scores contract over head_dim = 8 but are scaled by 1/sqrt(dim) = 1/8 instead of 1/sqrt(8), flattening every attention distribution by a factor of sqrt(8)."),
    )
