from lib import *

NAME = "w46_hf_electra_padmask"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask=pad_mask.long()", "attention_mask=(~pad_mask).long()")],
        checks={
            "padding": (perturb(0, lambda a, k: a[1], 3, 64), whole()),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(solo_cut(1, {0: 8, 1: 8}), solo_cut(2, {0: 5, 1: 5})),
        note="ref = each review cut to its tokens and classified alone",
        label=dict(expected=["mask-polarity"], also_ok_codes=["padding-leak"], line_sub="attention_mask=pad_mask.long()",
                   also_subs=["pad_mask = ids.eq(PAD_ID)  # True where padded"], consequence_codes=["fully-masked-row"],
                   why="transformers' attention_mask means 1 = attend, 0 = padding. The collate function's pad_mask follows PyTorch's key_padding_mask convention (True = padding) and is passed through unchanged, so ELECTRA attends only to the pad positions and hides every real token (the unpadded review has every key masked). The class logits change with the content of the padding."),
    )
