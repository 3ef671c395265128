from lib import *

NAME = "q46_cls_mean_encoder"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 60), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 1, 60), samp(0)),
        },
        note="CLS prepended and always visible; key mask over real tokens; mean pool over real tokens only",
        label=dict(expected=[], line_sub="mean = (x[:, 1:] * m).sum(1) / m.sum(1).clamp(min=1e-9)",
                   also_subs=['mask = rearrange(mask, "b j -> b 1 1 j")'],
                   why="The padding mask is extended with True for CLS, applied over keys with -max before softmax, and the mean pool weights only real tokens."),
    )
