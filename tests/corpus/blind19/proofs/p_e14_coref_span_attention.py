from lib import *

NAME = "e14_coref_span_attention"


def pads(a, k):
    return torch.arange(a[0].size(1))[None] >= a[1][:, None]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 1, 180), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 180), samp(0)),
        },
        label=dict(line_sub='logits = logits[:, None, :].masked_fill(~inside[None], float("-inf"))',
                   why="The head-word softmax is restricted to each span's tokens, and every enumerated span contains at least its start token so no row is empty; spans reaching into padding get a constant -1e4 score and cannot carry pad content."),
    )
