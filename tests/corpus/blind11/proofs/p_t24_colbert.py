from lib import *

NAME = "t24_colbert"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(1, 0), 1, 60), perturb(2, where_eq(3, 0), 1, 60)), whole()),
            "batch": (chain(perturb(0, sample(0, 1), 1, 60), perturb(2, sample(2, 1), 1, 60)), samp(0)),
        },
        note="MaxSim over document tokens excludes padding (-1e4 on cosine sims in [-1, 1]); query padding drops out of the sum",
        label=dict(expected=[], line_sub="sim = sim.masked_fill(d_mask[:, None, :] == 0, -1e4)",
                   why="Late interaction takes a max (not a softmax) over document tokens; padded document tokens are pushed to -1e4 against cosine similarities, padded query tokens are zeroed out of the sum; encoders use key padding masks."),
    )
