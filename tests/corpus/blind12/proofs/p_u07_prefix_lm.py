from lib import *

NAME = "u07_prefix_lm"


def result():
    # t = 7 is a target position in both rows (prefixes 5 and 3): nothing after it may matter
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("bidirectional = (i < prefix_len[:, None, None])", "bidirectional = (j < prefix_len[:, None, None])")],
        checks={
            "causal": (perturb(0, after(0, 7), 0, 64), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        note="the prefix rows are opened to every key (query index compared with the prefix length): the prefix reads the targets, and through it the next layer's targets read their future",
        label=dict(expected=["causal-leak"], line_sub="bidirectional = (i < prefix_len[:, None, None])",
                   also_subs=["return causal | bidirectional"],
                   why="The bidirectional part must open prefix keys (j < prefix_len); comparing the query index opens every key, future targets included, to the prefix queries. The prefix states then carry the targets, and in the second layer every target reads its future through them."),
    )
