from lib import *

NAME = "z27_ast_overlap_patches"


def attn_ref(m, x):
    B, N, C = x.shape
    q, k, v = m.qkv(x).view(B, N, 3, m.num_heads, -1).permute(2, 0, 3, 1, 4)
    o = F.scaled_dot_product_attention(q, k, v)
    return m.proj(o.transpose(1, 2).reshape(B, N, C))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("x = (attn @ v).reshape(B, N, C)", "x = (attn @ v).transpose(1, 2).reshape(B, N, C)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=module_ref(lambda m: m.blocks[0].attn, attn_ref),
        label=dict(expected=["head-merge"], line_sub="x = (attn @ v).reshape(B, N, C)",
                   why="The (B, H, N, d_h) attention output is reshaped straight to (B, N, C) without moving the head axis next to d_h, so each merged token row is built from several tokens of one head; the [CLS]/[DIST] outputs mix unrelated patches."),
    )
