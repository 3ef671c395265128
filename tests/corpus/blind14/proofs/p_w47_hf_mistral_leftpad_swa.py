from lib import *

NAME = "w47_hf_mistral_leftpad_swa"

real = lambda o, a, k: o[a[1] == 1]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real),
            "causal": (perturb(0, after(0, 7), 3, 64), upto_real(7, 1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(solo(1, n=9, left=True), solo(2, n=6, left=True)),
        note="ref = each prompt alone without padding (positions from 0)",
        label=dict(line_sub="position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)",
                   why="attention_mask follows the library convention (1 = real) with left padding; position ids count real tokens only, so a prompt gets the same rotary positions with or without padding; the sliding window and causal mask are applied by the library. Each prompt scored alone gives the same logits."),
    )
