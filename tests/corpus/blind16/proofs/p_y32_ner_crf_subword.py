from lib import *

NAME = "y32_ner_crf_subword"


def result():
    return prove(
        NAME, "correct",
        checks={"padding": (keep, whole(), pad_row(lambda m: m.embed, 0)),
                "pad_words": (perturb(1, where_eq(2, 0), 0, 14), whole()),
                "batch": (perturb(0, both(sample(0, 0), lambda a, k: a[0] > 2), 3, 200), samp(1))},
        label=dict(line_sub="nxt = torch.logsumexp(scores, dim=1)",
                   why="The forward algorithm's logsumexp over dim=1 sums over the previous tag, which is the CRF recursion, not an attention softmax; padded words keep alpha unchanged via torch.where, and padded subwords are masked as keys, so the log-partition ignores padding."),
    )
