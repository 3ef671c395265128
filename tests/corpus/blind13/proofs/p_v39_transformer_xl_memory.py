from lib import *

NAME = "v39_transformer_xl_memory"

def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 0, 64), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        label=dict(line_sub="scores = scores.masked_fill(j > i, float(\"-inf\"))",
                   why="Keys are [memory; segment] and query i is at key index M + i, so the mask j > M + i hides only the future; the memory holds the previous segment (earlier tokens). Relative distances are i + M - j, clamped at 0 for the masked future entries only."),
    )
