from lib import *

NAME = "q15_triangle_attention"


def pad_pairs(a, k):
    s = a[1]
    return (s[:, :, None] * s[:, None, :]) == 0


def real_pairs(o, a, k):
    s = a[1]
    return o[(s[:, :, None] * s[:, None, :]) == 1]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pad_pairs), real_pairs),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="starting + ending node triangle attention via SDPA with additive key mask and triangle bias",
        label=dict(expected=[], line_sub="mask_bias = torch.zeros_like(mask).masked_fill(mask == 0, -1e9)[:, :, None, None, :]  # [B, I, 1, 1, K]",
                   why="Edge (i,j) attends over edges (i,k) with key mask on k and triangle bias from (j,k); the ending-node variant transposes both z and the mask."),
    )
