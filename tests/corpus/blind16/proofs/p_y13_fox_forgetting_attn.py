from lib import *

NAME = "y13_fox_forgetting_attn"


def result():
    return prove(
        NAME, "correct",
        checks={"causal": (perturb(0, after(0, 11), 0, 64), upto(11)),
                "causal0": (perturb(0, after(0, 0), 0, 64), upto(0)),
                "batch": (perturb(0, sample(0, 0), 0, 64), samp(1))},
        label=dict(line_sub="decay = c.unsqueeze(-1) - c.unsqueeze(-2)",
                   why="The cumulative sum of log forget gates runs over the whole sequence, but only differences c_i - c_j for j <= i are kept (the rest is -inf), and they involve gates of positions j+1..i only, so no future token affects a query; the diagonal gets a zero bias."),
    )
