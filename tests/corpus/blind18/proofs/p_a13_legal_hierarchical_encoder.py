from lib import *

NAME = "a13_legal_hierarchical_encoder"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (keep, whole(), pad_row(lambda m: m.tok_emb, 0)),
            "batch": (perturb(0, sample(0, 1), 1, 300), samp(0)),
        },
        ref=solo(2),
        label=dict(line_sub="word_pad = tok_pad & ~empty",
                   why="Rows of the token grid that are entirely padding are un-masked at the word level only so their softmax stays finite; those sentences are then hidden at the document level (sent_pad) and excluded from the final mean, so neither NaN nor pad content reaches the output."),
    )
