from lib import *

NAME = "t05_pointer_net"


def result():
    pads = lambda a, k: ~get(a, k, 1)
    glimpse = lambda o: o[0]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("logits = logits.masked_fill(node_mask, -1e9)", "logits = logits.masked_fill(~node_mask, -1e9)")],
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        pick=glimpse,
        note="glimpse mask hides real nodes and shows the padded ones; the glimpse vector is a weighted mean of padding",
        label=dict(expected=["mask-polarity"], line_sub="logits = logits.masked_fill(node_mask, -1e9)",
                   consequence_codes=["padding-leak"],
                   why="node_mask is True for real nodes; the glimpse fills where it is True, so the query reads only padded nodes (the pointer line below uses ~node_mask correctly)."),
    )
