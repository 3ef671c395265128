from lib import *

NAME = "z18_dialogue_turn_mask"


def result():
    # sample 0's turns end at positions 3, 9, 14, 19: perturbing after the end of its second
    # turn leaves its first two turns unchanged
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, both(sample(0, 0), after(0, 9)), 1, 300), lambda o, a, k: o[0, :10]),
            "padding": (perturb(0, where_eq(3, 0), 1, 300), real(3)),
            "batch": (perturb(0, sample(0, 2), 1, 300), samp(0)),
        },
        label=dict(line_sub="allowed = turn_ids[:, None, :] <= turn_ids[:, :, None]",
                   why="The mask is causal at turn granularity on purpose: tokens see their whole turn (including later tokens of the same turn) and all earlier turns, never a later turn; padding is removed on the key axis and every query keeps its own turn, so no row is empty."),
    )
