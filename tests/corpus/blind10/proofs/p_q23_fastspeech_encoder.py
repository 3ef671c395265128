from lib import *

NAME = "q23_fastspeech_encoder"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attn = attn.masked_fill(mask, -1e-9)", "attn = attn.masked_fill(mask, -1e9)")],
        checks={
            "padding": (perturb(0, where_eq(1, True), 1, 30), real(1, keep=False)),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, False)), 1, 30), samp(0)),
        },
        note="masked scores are set to -1e-9 (about 0), which does not suppress padded keys",
        label=dict(expected=["mask-value"], line_sub="attn = attn.masked_fill(mask, -1e-9)",
                   consequence_codes=["padding-leak"],
                   why="The fill value -1e-9 is essentially zero, so padded keys keep normal attention weight; the intended value is -1e9 (or -inf)."),
    )
