from lib import *

NAME = "a28_fraud_sequence_attention"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("w = torch.exp(scores)", "w = torch.exp(scores - scores.amax(dim=-1, keepdim=True))")],
        checks={"causal": (chain(perturb(2, after(2, 4), 0, 40), perturb(0, after(0, 4))), upto(4))},
        label=dict(expected=["unstable-softmax"], line_sub="w = torch.exp(scores)",
                   consequence_codes=["nan"],
                   why="The hand-written softmax exponentiates the raw scores; with unnormalised amounts and time gaps as features the logits reach the hundreds, exp overflows to inf and inf/inf gives NaN scores."),
    )
