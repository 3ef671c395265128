from lib import *

NAME = "v04_mha_3d_head_mask"

def result():
    pads = where_eq(2, 0)
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("pad.repeat(H, 1, 1)", "pad.repeat_interleave(H, dim=0)")],
        checks={
            "padding": (chain(perturb(0, pads, 1, 30), perturb(1, pads)), real(2)),
            "batch": (chain(perturb(0, sample(0, 1), 1, 30), perturb(1, sample(1, 1))), samp(0)),
        },
        note="rows of the 3-D mask must be ordered b * H + h; repeat tiles the B padding masks H times (row h * B + b)",
        label=dict(expected=["mask-axis"], also_ok_codes=["padding-leak", "batch-leak"],
                   line_sub="attn_mask = dist_bias.reshape(B * H, T, T) + pad.repeat(H, 1, 1)",
                   also_subs=["pad = pad.masked_fill(mask[:, None, :] == 0, float(\"-inf\"))"],
                   why="nn.MultiheadAttention reads a 3-D attn_mask as (batch * heads, T, T) with row b * heads + h. The distance bias is reshaped in that order, but pad.repeat(H, 1, 1) stacks the B padding masks H times, so row b * H + h holds the padding of sample (b * H + h) % B: most heads of a sample use another sample's padding, and real tokens attend to their own padded events."),
    )
