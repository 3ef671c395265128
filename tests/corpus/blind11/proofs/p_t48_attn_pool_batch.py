from lib import *

NAME = "t48_attn_pool_batch"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("weights = weights / weights.sum(dim=0, keepdim=True)", "weights = weights / weights.sum(dim=-1, keepdim=True)")],
        checks={
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: get(a, k, 1) == 1)), samp(0)),
            "padding": (perturb(0, where_eq(1, 0)), whole()),
        },
        ref=solo(2, n=6, pooled=True),
        note="hand-written softmax normalized over dim 0: each instance's weight is divided by the same instance index summed over the slides of the batch",
        label=dict(expected=["softmax-axis"], line_sub="weights = weights / weights.sum(dim=0, keepdim=True)",
                   consequence_codes=["batch-leak"],
                   why="The exp/sum softmax over instances divides by a sum over dim 0 (the bag/batch axis) instead of the instance axis, so a slide's pooling weights depend on the other slides in the batch and do not sum to 1."),
    )
