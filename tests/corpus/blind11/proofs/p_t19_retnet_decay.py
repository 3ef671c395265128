from lib import *

NAME = "t19_retnet_decay"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("distance = (index[:, None] - index[None, :]).float().abs()",
              "distance = (index[:, None] - index[None, :]).float().masked_fill(index[:, None] < index[None, :], float(\"inf\"))")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 50), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        note="|i - j| makes the decay symmetric: future tokens get the same weight as past ones",
        label=dict(expected=["causal-leak"], line_sub="distance = (index[:, None] - index[None, :]).float().abs()",
                   also_subs=["decay_mask = torch.exp(distance * self.decay[:, None, None])"],
                   why="The retention decay mask gamma^(n-m) must be zero for m > n; taking |n - m| decays symmetrically, so every position retains information from later tokens."),
    )
