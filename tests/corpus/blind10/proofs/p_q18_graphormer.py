from lib import *

NAME = "q18_graphormer"


def result():
    pad = where_eq(3, False)
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, pad, 1, 21), perturb(1, pad, 1, 4, seed=3)), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(3, True)), 1, 21), samp(0)),
        },
        note="padded nodes get -inf key bias; every query row keeps the unpadded graph token, so no row is fully masked and no NaN",
        label=dict(expected=[], line_sub='attn_bias = attn_bias.masked_fill(key_pad[:, None, :], float("-inf"))',
                   why="-inf only on padded node keys; the virtual graph token (column 0) is never masked, so every row, including padded ones, has a finite key; readout from the graph token."),
    )
