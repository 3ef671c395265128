from lib import *

NAME = "y18_cross_encoder_reranker"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("scores = scores * pair_mask[:, None, None, :]",
              "scores = scores.masked_fill(pair_mask[:, None, None, :] == 0, float('-inf'))")],
        checks={"padding": (perturb(0, where_eq(2, 0), 3, 150), whole()),
                "batch": (perturb(0, sample(0, 0), 3, 150), samp(1))},
        label=dict(expected=["mask-value"], line_sub="scores = scores * pair_mask[:, None, None, :]",
                   consequence_codes=["padding-leak"],
                   why="Multiplying the scores by the 0/1 pair mask sets padded keys' logits to 0 instead of -inf, so padding keeps a share of every softmax row and the relevance score depends on the pad slots and on how much padding the batch has."),
    )
