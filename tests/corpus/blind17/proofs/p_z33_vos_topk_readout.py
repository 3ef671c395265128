from lib import *

NAME = "z33_vos_topk_readout"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("x_exp = values.exp()", "x_exp = (values - values[:, :1]).exp()")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        label=dict(expected=["unstable-softmax"], consequence_codes=["nan"], also_ok_codes=["nan"],
                   line_sub="x_exp = values.exp()",
                   why="The top-k softmax exponentiates the raw affinities without subtracting the row maximum; the L2 affinities of large-norm keys are far below -100, exp underflows to 0 for every kept entry and 0/0 gives NaN masks for those query pixels."),
    )
