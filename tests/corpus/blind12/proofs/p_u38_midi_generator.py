from lib import *

NAME = "u38_midi_generator"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("att = F.softmax(att, dim=1)", "att = F.softmax(att, dim=-1)")],
        checks={
            "causal": (perturb(0, after(0, 6), 0, 320), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 320), samp(0)),
        },
        note="dim=1 of (B, nh, T, T) is the head axis: every masked entry is -1e9 in all heads and gets weight 1/nh",
        label=dict(expected=["softmax-axis"], line_sub="att = F.softmax(att, dim=1)",
                   consequence_codes=["causal-leak"],
                   why="The softmax runs over the head axis of the (B, nh, T, T) table, so each (query, key) cell is normalised across heads: rows no longer sum to 1 over keys, and masked future cells, equal (-1e9) in every head, get weight 1/nh, so every event reads future events."),
    )
