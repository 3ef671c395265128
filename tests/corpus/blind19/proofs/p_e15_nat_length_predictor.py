from lib import *

NAME = "e15_nat_length_predictor"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("pooled = enc_out.mean(dim=1)",
              "keep = (~src_pad).unsqueeze(-1).float()\n        pooled = (enc_out * keep).sum(1) / keep.sum(1)")],
        checks={"padding": (keep, lambda o, a, k: o, pad_row(lambda m: m.embed, 1))},
        pick=lambda o: o[1],
        note="output checked: the length logits",
        label=dict(expected=["padding-leak"], line_sub="pooled = enc_out.mean(dim=1)",
                   why="The length predictor averages the encoder states over all source positions including padding; the padded states (computed from the pad embeddings) change the predicted length of a sentence."),
    )
