from lib import *

NAME = "u03_block_local_attention"


def banded(mod):
    """reference: dense attention with the same weights and an explicit banded causal mask"""
    model, args, kw = build(mod)
    attn = model.blocks[0].attn
    torch.manual_seed(0)
    x = torch.randn(2, 16, 32)
    B, T, C = x.shape
    h, dh, bs = attn.h, attn.dh, attn.block
    q, k, v = attn.qkv(x).split(C, dim=-1)
    q, k, v = (t.view(B, T, h, dh).transpose(1, 2) for t in (q, k, v))
    i = torch.arange(T)[:, None]
    j = torch.arange(T)[None, :]
    allowed = (j <= i) & (j // bs >= i // bs - 1)
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
    ref = attn.proj(y.transpose(1, 2).reshape(B, T, C))
    with torch.no_grad():
        return maxdiff(attn(x), ref)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 60), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 60), samp(0)),
        },
        ref=banded,
        label=dict(expected=[], line_sub='att = torch.einsum("bhnqd,bhnkd->bhnqk", q, k2) / math.sqrt(dh)',
                   why="The time axis is reshaped into (blocks, block) with the block axis outermost, so every block holds consecutive tokens; the previous block is the block axis shifted by one with an empty (masked) block in front, and the mask compares absolute positions. It equals dense attention with a banded causal mask."),
    )
