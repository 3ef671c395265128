from lib import *

NAME = "v16_conformer_channel_norm"

def result():
    pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("torch.var_mean(x, dim=-2, keepdim=True, unbiased=False)", "torch.var_mean(x, dim=-1, keepdim=True, unbiased=False)")],
        checks={
            "padding": (perturb(0, pads), lambda o, a, k: o[~pads(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="statistics over dim -2 of (B, T, C) are over time, padded frames included",
        label=dict(expected=["layernorm-axis"], also_ok_codes=["padding-leak"],
                   line_sub="var, mean = torch.var_mean(x, dim=-2, keepdim=True, unbiased=False)",
                   why="The normalization is written for the (B, C, T) layout of the convolution module, where channels are dim -2; every call in the block passes (B, T, C), so the mean and variance are taken over the time axis, padded frames included. Each frame's normalized features depend on all other frames, and real frames change with the padding."),
    )
