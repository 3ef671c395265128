from lib import *

NAME = "q28_longformer"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 60), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 3, 60), samp(0)),
        },
        note="band |i-j|<=2 OR global row/col, AND key not padding; every row keeps the global <s> key, so no empty rows",
        label=dict(expected=[], line_sub="allowed = allowed & attention_mask.bool()[:, None, :]",
                   also_subs=["y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)"],
                   why="Boolean keep-mask for SDPA combining the sliding band, symmetric global attention and key padding; padded keys are never visible."),
    )
