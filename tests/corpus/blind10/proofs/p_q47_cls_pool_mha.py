from lib import *

NAME = "q47_cls_pool_mha"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("key_padding_mask = attention_mask.bool()", "key_padding_mask = attention_mask == 0")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 60), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 2, 60), samp(0)),
        },
        note="attention_mask (1 = real) passed as key_padding_mask (True = ignore): real tokens attend only to the padding",
        label=dict(expected=["mask-polarity"], line_sub="key_padding_mask = attention_mask.bool()",
                   also_subs=["x = x + attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)[0]"],
                   consequence_codes=["padding-leak"],
                   why="nn.MultiheadAttention's key_padding_mask marks positions to ignore, but it receives the 1-for-real attention mask, so every query attends only to padding keys."),
    )
