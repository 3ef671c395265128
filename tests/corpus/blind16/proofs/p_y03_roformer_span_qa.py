from lib import *

NAME = "y03_roformer_span_qa"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 5, 110), real(1)),
            "batch": (perturb(0, sample(0, 0), 5, 110), samp(2)),
        },
        label=dict(line_sub="return logits.log_softmax(dim=1)",
                   why="The span pointer distribution is a log-softmax over positions (dim=1), as it should be; question and pad slots are filled with the dtype minimum before it, and every row keeps its context tokens, so nothing is fully masked."),
    )
