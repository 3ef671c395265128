from lib import *

NAME = "x32_head_temperature_exp"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("        weights = torch.exp(scores)", "        weights = torch.exp(scores - scores.amax(dim=-1, keepdim=True))")],
        checks={
            "causal": (perturb(0, after(0, 11)), upto(11)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="the buggy forecast is NaN; with the row maximum subtracted it is finite and causal",
        label=dict(expected=["unstable-softmax"], also_ok_codes=["nan"], line_sub="        weights = torch.exp(scores)",
                   also_subs=[], consequence_codes=[],
                   why="The hand-written softmax exponentiates the raw scores. The first post-LN layer sees the un-normalized kW readings (hundreds), so q.k reaches thousands and exp overflows float32 (above ~88) to inf; inf / inf is NaN and every forecast becomes NaN. Subtracting the row maximum first keeps every exponent <= 0 and gives the same softmax."),
    )
