from lib import *

NAME = "u34_student_padded_encoder"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("scores = scores.masked_fill(attention_mask[:, None, :, None] == 0, -1e9)",
              "scores = scores.masked_fill(attention_mask[:, None, None, :] == 0, -1e9)")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 80), whole()),
            "batch": (perturb(0, sample(0, 1), 2, 80), samp(0)),
        },
        ref=refs(solo(1, n=6, pooled=True), solo(2, n=3, pooled=True)),
        note="the mask is broadcast along the query axis: padded query rows are filled (uniform), real rows see every key including padding",
        label=dict(expected=["mask-axis"], line_sub="scores = scores.masked_fill(attention_mask[:, None, :, None] == 0, -1e9)",
                   consequence_codes=["padding-leak"],
                   why="attention_mask[:, None, :, None] varies along the query axis of the (B, H, T_q, T_k) table, so whole rows of padded queries are filled while the real tokens' rows keep every key, the padded ones included; the [CLS] vector reads the padding."),
    )
