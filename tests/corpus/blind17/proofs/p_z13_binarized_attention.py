from lib import *

NAME = "z13_binarized_attention"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("        scores.masked_fill(pad_mask", "        scores = scores.masked_fill(pad_mask")],
        checks={"padding": (keep, whole(), pad_row(lambda m: m.tok, 0))},
        ref=solo_cut(3, {0: 4}),
        label=dict(expected=["mask-value"], line_sub="scores.masked_fill(pad_mask[:, None, None, :], float(\"-inf\"))",
                   why="masked_fill is not in place and its result is discarded, so the padding keys are never suppressed and the pooled intent logits depend on the padded positions."),
    )
