from lib import *

NAME = "u43_shared_qk_cosine"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("weights = torch.exp(scores)\n", "weights = torch.exp(scores - scores.amax(dim=-1, keepdim=True))\n")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="with shared, normalised q = k the diagonal score is exactly 1 / 0.01 = 100 and exp(100) overflows float32 (max ~3.4e38): inf / inf = NaN",
        label=dict(expected=["unstable-softmax"], line_sub="weights = torch.exp(scores)\n",
                   also_subs=["weights = weights / weights.sum(dim=-1, keepdim=True)"],
                   also_ok_codes=["nan"], consequence_codes=["nan"],
                   why="The hand-written softmax exponentiates the scores without subtracting the row maximum. Because queries and keys are the same unit vectors, each point's score with itself is 1 / 0.01 = 100, exp(100) is inf in float32 and inf / inf gives NaN in every row."),
    )
