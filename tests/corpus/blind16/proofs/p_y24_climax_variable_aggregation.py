from lib import *

NAME = "y24_climax_variable_aggregation"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("w = torch.exp(logits)", "w = torch.exp(logits - logits.amax(dim=-1, keepdim=True))")],
        checks={"batch": (perturb(1, sample(1, 0)), samp(1))},
        label=dict(expected=["unstable-softmax"], line_sub="w = torch.exp(logits)",
                   consequence_codes=["nan"],
                   why="The variable-aggregation softmax exponentiates the raw logits; with un-normalised physical fields (geopotential, pressure in Pa) the logits reach hundreds, exp overflows to inf and the weights become inf/inf = NaN."),
    )
