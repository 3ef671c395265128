from lib import *

NAME = "u16_mil_gated_pool"


def result():
    pads = lambda a, k: ~get(a, k, 1)
    logits = lambda o: o[0]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("a = a.masked_fill(~instance_mask, 0.0)", 'a = a.masked_fill(~instance_mask, float("-inf"))')],
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        pick=logits,
        ref=refs(solo(1, n=7, pooled=True, pick=logits), solo(2, n=3, pooled=True, pick=logits)),
        note="padded patches get score 0, i.e. weight exp(0)/Z, comparable to real patches: the bag embedding averages padding in",
        label=dict(expected=["mask-value"], line_sub="a = a.masked_fill(~instance_mask, 0.0)",
                   consequence_codes=["padding-leak"],
                   why="Filling padded instances with 0 before the softmax does not suppress them: a score of 0 is an ordinary score, so padded patches take a sizeable share of the weight and their features enter the bag embedding (and the result depends on how much padding the bag got)."),
    )
