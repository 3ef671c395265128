from lib import *

NAME = "t35_flex_mask_mod"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[('score_bias = torch.where(block_mask, float("-inf"), 0.0)', 'score_bias = torch.where(block_mask, 0.0, float("-inf"))')],
        checks={
            "causal": (perturb(0, after(0, 7), 0, 50), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
            "document": (perturb(0, lambda a, k: get(a, k, 1) == 0, 0, 50), lambda o, a, k: o[get(a, k, 1) != 0]),
        },
        note="torch.where branches swapped: the allowed positions get -inf and everything else (future, other documents) is visible",
        label=dict(expected=["mask-polarity"], line_sub='score_bias = torch.where(block_mask, float("-inf"), 0.0)',
                   also_ok_codes=["causal-leak"],
                   consequence_codes=["causal-leak", "batch-leak"],
                   why="mask_mod returns True where attention is allowed (flex_attention's convention); the dense fallback puts -inf where it is True, so each query sees only the future and the other documents."),
    )
