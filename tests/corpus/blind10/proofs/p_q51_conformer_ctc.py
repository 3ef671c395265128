from lib import *

NAME = "q51_conformer_ctc"


def pad(a, k):
    return torch.arange(a[0].shape[1])[None] >= a[1][:, None]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("scores = scores.masked_fill(pad_mask[:, None, :, None], -1e4)",
              "scores = scores.masked_fill(pad_mask[:, None, None, :], -1e4)")],
        checks={
            "padding": (perturb(0, pad), lambda o, a, k: o[~pad(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="pad mask [B,1,T,1] masks padded query rows instead of padded keys; real frames attend to padding",
        label=dict(expected=["mask-axis"], line_sub="scores = scores.masked_fill(pad_mask[:, None, :, None], -1e4)",
                   consequence_codes=["padding-leak"],
                   why="The padding mask is unsqueezed so that it varies over the query axis; padded rows are wiped while real frames keep attending to padded keys."),
    )
