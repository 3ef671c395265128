from lib import *

NAME = "z37_hf_ernie_pooler"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask=is_pad.long()", "attention_mask=(~is_pad).long()")],
        checks={"padding": (keep, whole(), pad_row(lambda m: m.ernie.embeddings.word_embeddings, 0))},
        ref=solo_cut(2, {0: 4}),
        label=dict(expected=["mask-polarity"], line_sub="hidden = self.ernie(input_ids=input_ids, attention_mask=is_pad.long()).last_hidden_state",
                   why="The boolean pad flags (True = padding) are passed as HF's attention_mask, whose convention is 1 = attend, so every real token attends only to the padding and the sentence embedding is computed from pad content."),
    )
