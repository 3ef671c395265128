from lib import *

NAME = "y23_dnabert_kmer_encoder"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("kpm = attention_mask.bool()", "kpm = attention_mask == 0")],
        checks={"padding": (perturb(0, where_eq(1, 0), 4, 68), whole()),
                "batch": (perturb(0, both(sample(0, 0), where_eq(1, 1)), 4, 68), samp(1))},
        label=dict(expected=["mask-polarity"], line_sub="kpm = attention_mask.bool()",
                   consequence_codes=["padding-leak"],
                   why="nn.MultiheadAttention's key_padding_mask means True = ignore, but the 1 = real attention mask is passed as is, so every real k-mer is hidden and each query attends only to the [PAD] slots."),
    )
