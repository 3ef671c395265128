from lib import *

NAME = "y06_marian_langid_pooling"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("alpha = torch.softmax(e, 0)", "alpha = torch.softmax(e, -1)")],
        checks={
            "batch": (perturb(0, both(sample(0, 0), where_eq(1, 1)), 2, 90), samp(1)),
            "padding": (perturb(0, where_eq(1, 0), 2, 90), whole()),
        },
        label=dict(expected=["softmax-axis"], line_sub="alpha = torch.softmax(e, 0)",
                   consequence_codes=["batch-leak"],
                   why="The pooling weights are normalised over the batch axis instead of the token axis, so each sentence's weights depend on the other sentences in the batch and do not sum to one over its own tokens."),
    )
