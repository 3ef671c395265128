from lib import *

NAME = "t36_hf_bert"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask=padding_mask.long()", "attention_mask=(~padding_mask).long()")],
        checks={
            "padding": (perturb(0, where_eq(1, True), 5, 64), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: torch.arange(10)[None] > 0), 5, 64), samp(0)),
        },
        ref=solo(2, n=4, pooled=True),
        note="HF attention_mask is 1 = attend; the padding mask (True = pad) is passed as is",
        label=dict(expected=["mask-polarity"], line_sub="out = self.bert(input_ids=input_ids, attention_mask=padding_mask.long())",
                   consequence_codes=["padding-leak"],
                   why="BertModel's attention_mask means 1 = real token; the collator's padding_mask is True at pads, so the real tokens are masked and every query reads only the padding (the unpadded sample attends uniformly)."),
    )
