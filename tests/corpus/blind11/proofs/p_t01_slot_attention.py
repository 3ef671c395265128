from lib import *

NAME = "t01_slot_attention"


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=solo(2),
        note="softmax over slots (dim=1) is Slot Attention's competition step; renormalized over inputs before the weighted mean",
        label=dict(expected=[], line_sub="attn = dots.softmax(dim=1) + self.eps",
                   why="Slot Attention normalizes over the slot axis by design (slots compete for inputs), then renormalizes each slot's weights over the inputs; samples stay independent."),
    )
