from lib import *

NAME = "w28_unet_spatial_groupnorm"


def gn_ref(gn, x):
    return F.group_norm(x, gn.groups, gn.weight, gn.bias, gn.eps)


def attn_ref(blk, x):
    b, c, h, w = x.shape
    qkv = blk.qkv(F.group_norm(x, blk.norm.groups, blk.norm.weight, blk.norm.bias, blk.norm.eps).reshape(b, c, h * w))
    q, k, v = qkv.reshape(b, 3, blk.heads, c // blk.heads, h * w).permute(1, 0, 2, 4, 3)
    a = F.scaled_dot_product_attention(q, k, v).permute(0, 1, 3, 2).reshape(b, c, h * w)
    return x + blk.proj_out(a).reshape(b, c, h, w)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(module_ref(lambda m: m.attn.norm, gn_ref), module_ref(lambda m: m.attn, attn_ref)),
        note="ref = the hand-written GroupNorm against F.group_norm, and the attention block against a reshape/SDPA version",
        label=dict(line_sub="mean = g.mean(dim=(2, 3, 4), keepdim=True)",
                   why="This is a GroupNorm, not a LayerNorm: its statistics are meant to span a group of channels and all pixels (dims 2, 3, 4 of (B, G, C/G, H, W)), with the biased variance inside the square root, exactly as F.group_norm. The fused qkv channels are split as (three, heads, d) and heads are merged back as (heads d), the layout of the 1x1 convolution."),
    )
