from lib import *

NAME = "y11_cvt_conv_projection"


def ref_attn(m, x, h, w):
    B, N, C = x.shape
    grid = x.transpose(1, 2).reshape(B, C, h, w)
    H = m.num_heads
    q = m.proj_q(m.conv_proj_q(grid)).view(B, -1, H, C // H).transpose(1, 2)
    k = m.proj_k(m.conv_proj_k(grid)).view(B, -1, H, C // H).transpose(1, 2)
    v = m.proj_v(m.conv_proj_v(grid)).view(B, -1, H, C // H).transpose(1, 2)
    o = F.scaled_dot_product_attention(q, k, v)
    return m.proj(o.transpose(1, 2).reshape(B, N, C))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("self.scale = dim_out ** -0.5", "self.scale = (dim_out // num_heads) ** -0.5")],
        checks={"batch": (perturb(0, sample(0, 0)), samp(1))},
        ref=module_ref(lambda m: m.blocks[0].attn, ref_attn),
        note="ref: first block's attention vs SDPA (scale 1/sqrt(head_dim))",
        label=dict(expected=["scale-factor"], line_sub="self.scale = dim_out ** -0.5",
                   why="The scores are scaled by 1/sqrt(dim_out) = 1/sqrt(48) although each head contracts over head_dim = 12, so the logits are twice too small and every head's attention is flattened."),
    )
