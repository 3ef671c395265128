from lib import *

NAME = "x47_hf_qwen2_leftpad"

real = lambda o, a, k: o[a[1] == 1]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 96), real),
            "causal": (perturb(0, both(after(0, 8), lambda a, k: a[1] == 1), 1, 96), upto_real(8, 1)),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1] == 1), 1, 96), samp(0)),
        },
        ref=refs(solo(1, n=8, left=True), solo(2, n=5, left=True)),
        note="ref = each prompt alone without padding (positions from 0)",
        label=dict(line_sub="position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)",
                   why="The attention mask follows transformers' convention (1 = real) for left padding; the library combines it with its causal mask (GQA with 2 KV heads inside); position ids count real tokens, so a prompt gets the same rotary positions with or without padding. Each prompt scored alone gives the same logits."),
    )
