from lib import *

NAME = "t17_local_global"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return (q - k).abs() < window", "return (k <= q) & (q - k < window)")],
        checks={
            "causal": (perturb(0, after(0, 7), 0, 50), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        note="the local window is symmetric: it bounds how far back a query looks but lets it see window-1 future tokens",
        label=dict(expected=["causal-leak"], line_sub="return (q - k).abs() < window",
                   why="The sliding-window mask keeps |q - k| < window, a band on both sides of the diagonal, so local layers read the next window-1 tokens; only the global layers are causal."),
    )
