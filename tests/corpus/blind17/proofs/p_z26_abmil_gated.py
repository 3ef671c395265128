from lib import *

NAME = "z26_abmil_gated"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, False)), whole()),
            "batch": (perturb(0, sample(0, 0)), samp(1)),
        },
        ref=solo(2, 3, pooled=True),
        label=dict(line_sub="a = F.softmax(a, dim=1)",
                   why="The gated attention scores have shape (B, N, 1): the instance (key) axis is dim 1, so softmax(dim=1) is the correct normalisation; padded instances are filled with -inf and every bag has at least one patch."),
    )
