from lib import *

NAME = "u15_din_target"


def result():
    pads = lambda a, k: get(a, k, 2) == 0
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, pads, 1, 100), perturb(1, pads, 1, 10, seed=7)), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 100), samp(0)),
        },
        ref=refs(solo(1, n=5, pooled=True, T=8), solo(2, n=2, pooled=True, T=8)),
        label=dict(expected=[], line_sub='weights = self.att(behaviours, candidate) * hist_mask    # (B, L), no softmax by design',
                   why="DIN's activation weights are deliberately not softmax-normalised, so multiplying them by the 0/1 history mask is the correct way to drop padded behaviours (it is not a mask applied after a softmax); each user's score equals the unpadded history alone."),
    )
