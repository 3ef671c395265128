from lib import *

NAME = "q20_graph_adjacency"


def result():
    pad = where_eq(3, 0)
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("scores = scores * adj.unsqueeze(1)", "scores = scores.masked_fill(adj.unsqueeze(1) == 0, -1e9)")],
        checks={
            "padding": (chain(perturb(0, pad), perturb(1, pad, seed=4)), real(3)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="multiplying scores by the 0/1 adjacency sets non-edges to score 0 (weight exp(0)), so every node attends to non-neighbours and to padded nodes",
        label=dict(expected=["mask-value"], line_sub="scores = scores * adj.unsqueeze(1)",
                   consequence_codes=["padding-leak"],
                   why="The adjacency is applied by multiplying the scores by 0/1 before the softmax; non-neighbour and padded nodes get score 0 and still receive weight."),
    )
