from lib import *

NAME = "t41_mha_key_padding"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("key_padding_mask = attention_mask.bool()", "key_padding_mask = attention_mask == 0")],
        checks={
            "padding": (chain(perturb(0, where_eq(2, 0), 1, 80), perturb(1, where_eq(2, 0))), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 80), samp(0)),
        },
        ref=solo(2, n=4, pooled=True),
        note="nn.MultiheadAttention's key_padding_mask is True = ignore; the 1 = real attention_mask is passed as is",
        label=dict(expected=["mask-polarity"], line_sub="key_padding_mask = attention_mask.bool()",
                   consequence_codes=["padding-leak"],
                   why="key_padding_mask=True means 'ignore this key' in nn.MultiheadAttention; attention_mask is 1 for real events, so every real event attends only to the padded slots."),
    )
