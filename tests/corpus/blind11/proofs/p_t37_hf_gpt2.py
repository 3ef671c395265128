from lib import *

NAME = "t37_hf_gpt2"


def result():
    seqsum = lambda o: o[1]
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 64), real(1)),
            "causal": (perturb(0, after(0, 7), 1, 64), upto_real(7, 1)),
            "batch": (perturb(0, sample(0, 1), 1, 64), samp(0)),
        },
        ref=refs(solo(1, n=8, left=True), solo(2, n=5, left=True, pooled=True, pick=seqsum)),
        note="left padding with position_ids = cumsum - 1; the summed log-prob counts a target only when it and its context token are real",
        label=dict(expected=[], line_sub="position_ids = (attention_mask.long().cumsum(-1) - 1).masked_fill(attention_mask == 0, 1)",
                   why="HF GPT-2 with left padding: the mask hides pad keys, positions restart at the first real token (as HF generate does), and the sequence log-prob only sums real targets predicted from real context; equals each prompt scored alone without padding."),
    )
