from lib import *

NAME = "u45_additive_mask"


def result():
    pads = lambda a, k: get(a, k, 2) == 0
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, pads, 5, 120), perturb(1, pads, 0, 2, seed=5)), whole()),
            "batch": (perturb(0, sample(0, 1), 5, 120), samp(0)),
        },
        ref=refs(solo(1, n=9, pooled=True), solo(2, n=6, pooled=True)),
        label=dict(expected=[], line_sub="return (1.0 - extended) * torch.finfo(dtype).min",
                   why="The 0/1 mask is converted to an additive mask, (1 - m) * finfo.min, i.e. 0 for real tokens and the most negative float for padding; adding it to the scores cannot overflow (finfo.min plus a finite score stays finite in float32) and padded keys get exactly zero weight. Each pair's score equals the pair unpadded."),
    )
