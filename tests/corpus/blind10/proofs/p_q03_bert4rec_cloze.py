from lib import *

NAME = "q03_bert4rec_cloze"


def result():
    m = lambda a, k: get(a, k, 1) == 1
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("mask = attention_mask[:, None, :, None]", "mask = attention_mask[:, None, None, :]")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 41), real(1)),
            "batch": (perturb(0, both(sample(0, 1), m), 1, 41), samp(0)),
        },
        note="padding mask (B,1,T,1) masks query rows; real tokens attend to pad keys",
        label=dict(expected=["mask-axis"], line_sub="mask = attention_mask[:, None, :, None]",
                   also_subs=["scores = scores.masked_fill(mask == 0, -1e9)"],
                   consequence_codes=["padding-leak"],
                   why="The key-padding mask is unsqueezed as (B,1,T,1), so it varies over the query axis: pad query rows are wiped while real queries attend to pad keys."),
    )
