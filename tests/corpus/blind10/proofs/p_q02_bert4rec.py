from lib import *

NAME = "q02_bert4rec"


def result():
    m = lambda a, k: get(a, k, 1) == 1
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 41), real(1)),
            "batch": (perturb(0, both(sample(0, 1), m), 1, 41), samp(0)),
        },
        note="bidirectional BERT4Rec, key padding mask (B,1,1,T), right padding",
        label=dict(expected=[], line_sub="mask = attention_mask[:, None, None, :]",
                   why="Padding mask broadcast over the key axis, filled with -1e9 before softmax over keys; bidirectional by design (cloze task)."),
    )
