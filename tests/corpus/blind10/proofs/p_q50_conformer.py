from lib import *

NAME = "q50_conformer"


def pad(a, k):
    return torch.arange(a[0].shape[1])[None] >= a[1][:, None]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pad), lambda o, a, k: o[~pad(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="key padding mask (True = pad) over keys with -1e4; pads zeroed before the depthwise conv; BatchNorm in eval",
        label=dict(expected=[], line_sub="scores = scores.masked_fill(pad_mask[:, None, None, :], -1e4)",
                   also_subs=["x = x.masked_fill(pad_mask[:, None, :], 0.0)  # no padded frames inside the depthwise kernel"],
                   why="Relative-position scores plus a key padding mask broadcast over keys; the conv module zeroes padded frames so the depthwise kernel cannot pull them into real frames."),
    )
