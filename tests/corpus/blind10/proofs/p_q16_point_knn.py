from lib import *

NAME = "q16_point_knn"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(1, where_eq(2, False)), perturb(0, where_eq(2, False), seed=9)), whole()),
            "batch": (chain(perturb(1, sample(1, 1)), perturb(0, sample(0, 1))), samp(0)),
        },
        note="kNN over real points only (pad distances = inf), softmax over the K neighbours, masked max-pool",
        label=dict(expected=[], line_sub="attn = logits.softmax(dim=2)",
                   also_subs=['d = d.masked_fill(~valid[:, None, :], float("inf"))'],
                   why="Logits are [B, N, K, h]; the softmax runs over the neighbour axis K; padded points are excluded from kNN and from the pooled max."),
    )
