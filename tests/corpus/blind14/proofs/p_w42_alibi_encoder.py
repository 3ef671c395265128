from lib import *

NAME = "w42_alibi_encoder"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 5, 150), whole()),
            "batch": (perturb(0, sample(0, 1), 5, 150), samp(0)),
        },
        ref=refs(solo(1, n=10, pooled=True), solo(2, n=6, pooled=True)),
        note="ref = each sentence cut to its tokens and classified alone",
        label=dict(line_sub="distance = (pos[None, :] - pos[:, None]).abs()",
                   why="In an encoder the ALiBi penalty is meant to be symmetric: -slope * |i - j| lets every token see both directions with a distance penalty (as in MosaicBERT), not a causal leak. Padded keys are filled with the dtype minimum along the key axis, and [CLS] at position 0 is always real."),
    )
