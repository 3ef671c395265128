from lib import *

NAME = "t46_fill_small"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("mask_value = -1e-4", "mask_value = -torch.finfo(dots.dtype).max")],
        checks={
            "padding": (perturb(0, where_eq(1, False), 1, 60), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 60), samp(0)),
        },
        ref=solo(2, n=5, pooled=True),
        note="-1e-4 is practically 0 against scores of order 1: padded keys keep almost their full weight",
        label=dict(expected=["mask-value"], line_sub="mask_value = -1e-4",
                   also_subs=["dots = dots.masked_fill(~mask[:, None, None, :], mask_value)"],
                   consequence_codes=["padding-leak"],
                   why="The fill value for masked keys is -1e-4 (a typo for -1e4 or -inf): exp(-1e-4) ~ 1, so padded keys get about the same weight as real ones and the pooled output depends on the padding."),
    )
