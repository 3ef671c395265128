from lib import *

NAME = "y07_segformer_efficient_attn"


def ref_attn(m, x, H, W):
    B, N, C = x.shape
    h = m.num_heads
    q = m.q(x).view(B, N, h, -1).transpose(1, 2)
    grid = x.transpose(1, 2).reshape(B, C, H, W)
    red = m.norm(m.sr(grid).flatten(2).transpose(1, 2))
    k, v = m.kv(red).chunk(2, dim=-1)
    k = k.reshape(B, -1, h, C // h).transpose(1, 2)
    v = v.reshape(B, -1, h, C // h).transpose(1, 2)
    o = F.scaled_dot_product_attention(q, k, v)
    return m.proj(o.transpose(1, 2).reshape(B, N, C))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 0), ), samp(1))},
        ref=module_ref(lambda m: m.blocks[0].attn, ref_attn),
        note="ref: first block's attention vs an SDPA re-implementation",
        label=dict(line_sub="x_ = self.sr(x_).reshape(B, C, -1).permute(0, 2, 1)",
                   why="Keys and values come from a strided conv of the token grid, so the score table is N x N/R^2; the reduced map is permuted to (B, N', C) before the LayerNorm, so statistics are over channels, and softmax runs over the reduced key axis."),
    )
