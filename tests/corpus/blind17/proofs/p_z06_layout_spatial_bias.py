from lib import *

NAME = "z06_layout_spatial_bias"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(2, 0), 1, 100), perturb(1, where_eq(2, 0), 0, 1000)), real(2)),
            "batch": (perturb(0, sample(1, 1), 1, 100), samp(0)),
        },
        ref=solo(2, 4),
        label=dict(line_sub="bias = bias.masked_fill(key_padding[:, None, None, :], torch.finfo(x.dtype).min)",
                   why="Per-head 1-D and 2-D relative biases are built as (B, h, T, T) and the padding keys (last axis) are filled with the dtype minimum before SDPA adds the float mask; the mask comes from attention_mask == 0, so True marks the padding to suppress."),
    )
