from lib import *

NAME = "e04_waitk_simultaneous_mt"
K = 3


def result():
    t = 4
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, t), 1, 80), upto(t)),
            "source_latency": (perturb(0, after(0, t + K - 1), 1, 80), upto(t)),
            "batch": (perturb(0, sample(0, 1), 1, 80), samp(0)),
        },
        note="source_latency: target steps <= t unchanged when source tokens >= t+k change",
        label=dict(line_sub="return s < (t + k)",
                   why="The wait-k cross mask is a rectangular staircase by design: target step t reads source tokens < t + k; the encoder is unidirectional and the decoder causal, so no step reads source beyond its latency budget."),
    )
