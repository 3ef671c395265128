from lib import *

NAME = "y01_mpnet_sentence_embed"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 5, 120), whole()),
            "batch": (perturb(0, sample(0, 0), 5, 120), samp(1)),
        },
        label=dict(line_sub="counts = weights.sum(dim=1).clamp(min=1e-9)",
                   why="The HF encoder receives the 1 = keep attention mask, and the pooling weights every token by that mask and divides by the number of real tokens, so padded tokens contribute nothing to the embedding."),
    )
