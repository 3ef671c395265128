from lib import *

NAME = "w23_topk_sparse_causal"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 64), upto(6)),
            "causal_early": (perturb(0, after(0, 2), 0, 64), upto(2)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        note="",
        label=dict(line_sub="kth = logits.topk(min(self.k_keep, T), dim=-1).values[..., -1:]",
                   why="Future keys are set to -inf before the top-k, so the k-th largest value of a row is taken among visible keys (or is -inf for rows with fewer than k visible keys, which then keep all of them); the softmax runs over the key axis and the diagonal is always visible. The selection depends only on the query's own row, so no later token influences an earlier one."),
    )
