from lib import *

NAME = "e13_event_trigger_argument"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("weights = F.softmax(scores, dim=-1) * token_mask",
              "weights = F.softmax(scores.masked_fill(token_mask == 0, float(\"-inf\")), dim=-1)")],
        checks={"padding": (perturb(0, where_eq(1, 0), 1, 220), real(1))},
        label=dict(expected=["mask-after-softmax"], line_sub="weights = F.softmax(scores, dim=-1) * token_mask",
                   consequence_codes=["padding-leak"],
                   why="Padding is zeroed only after the softmax, so the pads' scores still sit in the denominator: the real tokens' weights no longer sum to 1 and change with whatever the padded positions contain."),
    )
