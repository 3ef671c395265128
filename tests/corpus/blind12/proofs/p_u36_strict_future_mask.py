from lib import *

NAME = "u36_strict_future_mask"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 64), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        label=dict(expected=[], line_sub="strict_future = strict_past.T",
                   why="tril(diagonal=-1) is the strict past (j < i); its transpose is exactly the strict future (j > i), i.e. triu(1), so masking it with -inf leaves the diagonal and the past visible. RMSNorm averages over the feature axis; the softmax in float32 is cast back."),
    )
