from lib import *

NAME = "t12_masked_diffusion_lm"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("bias = extended_attention_bias(pad_mask, x.dtype)", "bias = extended_attention_bias(attention_mask, x.dtype)")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 60), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 60), samp(0)),
        },
        ref=solo(2, n=7),
        note="1 - mask is taken twice (caller and helper): real keys get finfo.min, padding is visible",
        label=dict(expected=["mask-polarity"], line_sub="bias = extended_attention_bias(pad_mask, x.dtype)",
                   also_subs=["pad_mask = 1 - attention_mask"],
                   consequence_codes=["padding-leak"],
                   why="extended_attention_bias already inverts the 1 = real mask; the caller inverts it first, so real tokens are masked and padded ones are attended to (the full-length sample attends uniformly)."),
    )
