from lib import *

NAME = "u52_vit_fused_attention"


def explicit_attention(mod):
    """the block's attention against the textbook softmax(q k^T / sqrt(d_head)) v with the same weights"""
    model, args, kw = build(mod)
    attn = model.blocks[0].attn
    torch.manual_seed(0)
    x = torch.randn(2, 10, 64)
    B, N, C = x.shape
    with torch.no_grad():
        q, k, v = attn.qkv(x).reshape(B, N, 3, attn.num_heads, attn.head_dim).permute(2, 0, 3, 1, 4)
        w = (q @ k.transpose(-1, -2) / math.sqrt(attn.head_dim)).softmax(-1)
        ref = attn.proj((w @ v).transpose(1, 2).reshape(B, N, C))
        return maxdiff(attn(x), ref)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("q = q * self.scale\n", "\n")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=explicit_attention,
        note="scaled_dot_product_attention already divides by sqrt(head_dim); pre-scaling q makes the total 1/head_dim",
        label=dict(expected=["scale-factor"], line_sub="q = q * self.scale\n",
                   also_subs=["x = F.scaled_dot_product_attention(q, k, v)"],
                   why="timm scales q by head_dim ** -0.5 because its explicit path multiplies q @ k^T without scaling; F.scaled_dot_product_attention applies the same 1/sqrt(head_dim) itself when scale is not given, so the scores end up divided by head_dim (16) instead of sqrt(head_dim) (4) and the attention is much flatter than intended."),
    )
