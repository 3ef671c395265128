from lib import *

NAME = "y16_sigmoid_attention_lm"


def result():
    # the -log(T) bias depends on the sequence length, so the prefix check compares same-length runs
    return prove(
        NAME, "correct",
        checks={"causal": (perturb(0, after(0, 10), 0, 90), upto(10)),
                "causal0": (perturb(0, after(0, 0), 0, 90), upto(0)),
                "batch": (perturb(0, sample(0, 2), 0, 90), samp(0))},
        label=dict(line_sub="weights = torch.sigmoid(logits)",
                   why="Sigmoid attention normalises nothing by design (weights need not sum to one); the causal mask is applied to the logits before the sigmoid with -inf, which maps future keys to exactly zero weight, and the diagonal is kept."),
    )
