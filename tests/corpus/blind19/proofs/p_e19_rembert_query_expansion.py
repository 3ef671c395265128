from lib import *

NAME = "e19_rembert_query_expansion"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attention_mask=is_pad)", "attention_mask=1 - is_pad)")],
        checks={"padding": (keep, whole(), pad_row(lambda m: m.encoder.embeddings.word_embeddings, 0))},
        label=dict(expected=["mask-polarity"], line_sub="attention_mask=is_pad)",
                   consequence_codes=["padding-leak"],
                   why="HF attention_mask means 1 = attend, but the wrapper passes 1 at the pad positions: the encoder attends only to padding and hides the real query and passage tokens."),
    )
