from lib import *

NAME = "z16_cosine_attention_lm"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 0, 200), upto(7)),
            "batch": (perturb(0, sample(0, 2), 0, 200), samp(0)),
        },
        label=dict(line_sub="att = self.g * (q @ k.transpose(-2, -1))",
                   why="With unit-norm queries and keys the scores are cosines, so QK-Norm replaces 1/sqrt(d_head) by a learned per-head gain g (initialised to log2(L^2 - L)); the causal buffer is the usual lower triangle, masked before the softmax."),
    )
