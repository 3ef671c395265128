from lib import *

NAME = "a17_laat_icd_coding"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 400), whole()),
            "batch": (perturb(0, sample(0, 0), 1, 400), samp(1)),
        },
        ref=solo(2, n=9, pooled=True),
        label=dict(line_sub="A = F.softmax(scores, dim=2)",
                   why="Scores are (B, labels, tokens), so dim=2 is the token axis and each label gets its own distribution over the note; the padding mask is unsqueezed on the label axis so it varies over tokens."),
    )
