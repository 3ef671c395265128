from lib import *

NAME = "e08_aspect_sentiment"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, lambda a, k: ~a[1], 1, 300), perturb(2, lambda a, k: ~a[3], 1, 300)), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 300), samp(0)),
        },
        label=dict(line_sub='s = s.masked_fill(~ctx_mask.unsqueeze(1), float("-inf"))',
                   why="The aspect query attends over context keys with padding filled to -inf before the softmax (mask broadcast over the single query row), and the aspect average divides by the real aspect length."),
    )
