from lib import *

NAME = "y26_decision_transformer"


def result():
    # action at step t is predicted from the state token of step t: it may see r_<=t, s_<=t, a_<t
    fut = chain(perturb(0, after(0, 4)), perturb(1, after(1, 3)), perturb(2, after(2, 4)))
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("y = y.reshape(B, T, C)", "y = y.transpose(1, 2).reshape(B, T, C)")],
        checks={"causal": (fut, upto(4)),
                "batch": (chain(perturb(0, sample(0, 0)), perturb(1, sample(1, 0))), samp(1))},
        label=dict(expected=["head-merge"], line_sub="y = y.reshape(B, T, C)",
                   consequence_codes=["causal-leak"],
                   why="The (B, H, T, d) attention output is reshaped straight to (B, T, C), so each merged token row is built from several consecutive positions of one head, including later tokens: early action predictions depend on future states and returns."),
    )
