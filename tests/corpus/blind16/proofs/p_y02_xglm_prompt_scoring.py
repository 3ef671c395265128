from lib import *

NAME = "y02_xglm_prompt_scoring"


def result():
    real_rows = lambda o, a, k: o[~a[1]]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask = key_padding_mask.long()", "attention_mask = (~key_padding_mask).long()")],
        checks={
            "padding": (keep, real_rows, pad_row(lambda m: m.lm.model.embed_tokens, 1)),
        },
        label=dict(expected=["mask-polarity"], line_sub="attention_mask = key_padding_mask.long()",
                   consequence_codes=["padding-leak", "fully-masked-row"],
                   why="The collator's key-padding mask (True = pad) is handed to HF as attention_mask, whose convention is 1 = attend, so the prompt tokens are hidden and the left pads are attended; real-token logits depend on the pad embedding."),
    )
