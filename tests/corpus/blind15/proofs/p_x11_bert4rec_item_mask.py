from lib import *

NAME = "x11_bert4rec_item_mask"

real_rows = lambda o, a, k: o[a[0] > 0]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("scores = scores.masked_fill(mask == 0, -1e-9)", "scores = scores.masked_fill(mask == 0, -1e9)")],
        checks={
            "padding": (keep, real_rows, pad_row(lambda m: m.item_emb, 0)),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[0] > 0), 1, 61), samp(0)),
        },
        note="padding = changing only the pad item's embedding vector (what the padded slots contain) moves the scores at real positions",
        label=dict(expected=["mask-value"], also_ok_codes=["padding-leak"],
                   line_sub="scores = scores.masked_fill(mask == 0, -1e-9)", also_subs=[], consequence_codes=[],
                   why="The padded keys are filled with -1e-9 (a tiny negative number, a typo for -1e9) before the softmax: exp(-1e-9 - max) is as large as any real score's, so every real item attends to the left padding as if it were history. The next-item scores change with what the pad slots contain."),
    )
