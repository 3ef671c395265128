from lib import *

NAME = "x12_bert4rec_cloze"

real_rows = lambda o, a, k: o[a[0] > 0]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (keep, real_rows, pad_row(lambda m: m.item_emb, 0)),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[0] > 0), 1, 61), samp(0)),
        },
        note="padding = changing only the pad item's embedding vector leaves the scores at real positions unchanged",
        label=dict(line_sub="scores = scores.masked_fill(mask == 0, -1e9)",
                   why="mask is (B, 1, T_q, T_k) and varies over the keys (seq > 0 repeated over the query rows); the padded keys are filled with -1e9 before the softmax, so they get exactly zero weight in float32. Left padding with absolute positions is BERT4Rec's fixed-length input format; every row of a left-padded history still has its real keys."),
    )
