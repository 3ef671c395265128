from lib import *

NAME = "y36_mind_multi_interest"


def result():
    return prove(
        NAME, "correct",
        checks={"padding": (keep, whole(), pad_row(lambda m: m.item_emb, 0)),
                "batch": (chain(perturb(0, both(sample(0, 0), lambda a, k: a[0] != 0), 1, 300), perturb(1, sample(1, 0), 1, 300)), samp(1))},
        ref=solo_cut(3, {0: 6}),
        note="ref: user 3 with its 6-item history unpadded gives the same score",
        label=dict(line_sub="c = b.softmax(dim=-1) * m",
                   why="In behaviour-to-interest routing the coupling coefficients are a softmax over the interest capsules for each item (dim=-1 is the capsule axis here), not over items; padded items are then zeroed out of the capsule sums, so padding cannot reach the interests."),
    )
