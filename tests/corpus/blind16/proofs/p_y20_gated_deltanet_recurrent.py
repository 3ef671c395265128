from lib import *

NAME = "y20_gated_deltanet_recurrent"


def result():
    return prove(
        NAME, "correct",
        checks={"causal": (perturb(0, after(0, 6), 0, 64), upto(6)),
                "causal0": (perturb(0, after(0, 0), 0, 64), upto(0)),
                "batch": (perturb(0, sample(0, 0), 0, 64), samp(1))},
        label=dict(line_sub="S = a * S @ (eye - b * kt.unsqueeze(-1) * kt.unsqueeze(-2)) + b * vt.unsqueeze(-1) * kt.unsqueeze(-2)",
                   why="There is no softmax or mask: causality comes from the left-padded short convolutions and from the recurrent state, which at step t only holds keys and values up to t; the LayerNorm on the output is over the head feature axis."),
    )
