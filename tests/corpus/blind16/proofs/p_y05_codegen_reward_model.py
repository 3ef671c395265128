from lib import *

NAME = "y05_codegen_reward_model"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 100), whole()),
            "batch": (perturb(0, sample(0, 0), 3, 100), samp(2)),
        },
        ref=solo(1, n=12, left=True, pooled=True),
        note="ref: sample 1 (4 left pads) scored alone without its pads",
        label=dict(line_sub="last = hidden[:, -1]",
                   why="Reading the last column looks like the classic right-padding bug, but the batch is left-padded, so column -1 is every sequence's final real token; position ids are rebuilt from the mask, so the reward equals the unpadded one."),
    )
