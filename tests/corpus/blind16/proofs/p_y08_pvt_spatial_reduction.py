from lib import *

NAME = "y08_pvt_spatial_reduction"


def ref_attn(m, x, H, W):
    B, N, C = x.shape
    h = m.num_heads
    q = m.q(x).view(B, N, h, -1).transpose(1, 2)
    red = F.layer_norm(m.sr(x.transpose(1, 2).reshape(B, C, H, W)).flatten(2).transpose(1, 2),
                       (C,), m.norm.weight, m.norm.bias, m.norm.eps)
    k, v = m.kv(red).chunk(2, dim=-1)
    k = k.reshape(B, -1, h, C // h).transpose(1, 2)
    v = v.reshape(B, -1, h, C // h).transpose(1, 2)
    o = F.scaled_dot_product_attention(q, k, v)
    return m.proj(o.transpose(1, 2).reshape(B, N, C))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("x_ = self.sr(x_).reshape(B, C, -1)\n        x_ = self.norm(x_).permute(0, 2, 1)",
              "x_ = self.sr(x_).reshape(B, C, -1).permute(0, 2, 1)\n        x_ = self.norm(x_)")],
        checks={"batch": (perturb(0, sample(0, 0)), samp(1))},
        ref=module_ref(lambda m: m.blocks[0].attn, ref_attn),
        note="ref: first block's attention vs SRA with LayerNorm over channels",
        label=dict(expected=["layernorm-axis"], line_sub="x_ = self.norm(x_).permute(0, 2, 1)",
                   why="The LayerNorm runs on the (B, C, N') map before the permute; with 16 channels and a 4x4 reduced grid the sizes match, so it silently normalises each channel over spatial positions instead of each position over channels."),
    )
