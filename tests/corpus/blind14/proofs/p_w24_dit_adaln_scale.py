from lib import *

NAME = "w24_dit_adaln_scale"


def sdpa_attention(att, x):
    B, N, C = x.shape
    q, k, v = att.qkv(x).reshape(B, N, 3, att.num_heads, att.head_dim).permute(2, 0, 3, 1, 4)
    o = F.scaled_dot_product_attention(q, k, v)  # default scale 1/sqrt(head_dim)
    return att.proj(o.transpose(1, 2).reshape(B, N, C))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("attn = (q @ k.transpose(-2, -1)) / self.head_dim", "attn = (q @ k.transpose(-2, -1)) / self.head_dim ** 0.5")],
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 0, 10)), samp(0))},
        ref=module_ref(lambda m: m.blocks[0].attn, sdpa_attention),
        note="ref = the first block's attention against SDPA with the default 1/sqrt(head_dim) scale on the same input",
        label=dict(expected=["scale-factor"], also_ok_codes=[], line_sub="attn = (q @ k.transpose(-2, -1)) / self.head_dim",
                   also_subs=[], consequence_codes=[],
                   why="Scaled dot-product attention divides the scores by sqrt(head_dim) (= 4 here); dividing by head_dim (16) shrinks the logits four times and flattens every attention distribution toward uniform, which the DiT weights (trained with 1/sqrt(d)) never saw."),
    )
