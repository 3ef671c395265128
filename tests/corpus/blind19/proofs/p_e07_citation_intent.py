from lib import *

NAME = "e07_citation_intent"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("alpha = F.softmax(scores, dim=0)", "alpha = F.softmax(scores, dim=-1)")],
        checks={"batch": (perturb(0, both(sample(0, 1, lead=2), lambda a, k: a[1] == 1), 1, 200), samp(0))},
        label=dict(expected=["softmax-axis"], line_sub="alpha = F.softmax(scores, dim=0)",
                   consequence_codes=["batch-leak"],
                   why="The pooling scores are (B, T) and are normalized over dim 0, across the sentences of the batch, instead of over the tokens; each sentence's pooled vector depends on the other sentences."),
    )
