from lib import *

NAME = "a01_vqa_question_guided_attention"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(1, where_eq(2, 0)), whole()),
            "batch": (chain(perturb(0, sample(0, 1), 1, 200), perturb(1, sample(1, 1))), samp(0)),
        },
        label=dict(line_sub="keep = region_mask[:, None, None, :].bool()",
                   why="Keys are laid out as (B, H, d, N) so the logits are (B, H, Lq, N); the region mask is broadcast over the last (region) axis with -inf on padded boxes, and every image has at least one box, so answers do not depend on padded region features."),
    )
