from lib import *

NAME = "e03_spelling_char_seq2seq"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 4), 1, 60), upto(4)),
            "batch": (perturb(0, sample(0, 1), 1, 60), samp(0)),
        },
        ref=solo_cut(2, {0: 5}),
        note="ref: word 2 with its padding cut off, run alone",
        label=dict(line_sub="src_pad = src.eq(PAD)",
                   why="Padding masks are True at PAD ids as nn.Transformer expects, the decoder uses the standard additive subsequent mask; removing a word's padding leaves its output unchanged."),
    )
