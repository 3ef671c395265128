from lib import *

NAME = "e24_srl_predicate_indicator"


def pads(a, k):
    return torch.arange(a[0].size(1))[None] >= a[2][:, None]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 1, 240), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 240), samp(0)),
        },
        ref=solo_cut(3, {0: 3}, out_cut=3),
        note="ref: the 3-word sentence alone without padding",
        label=dict(line_sub="row_max = torch.where(torch.isfinite(row_max), row_max, torch.zeros_like(row_max))",
                   why="The hand-written softmax subtracts the row max, and padded query rows (every key hidden on purpose by the query-side mask) are mapped to zero weights instead of NaN; their outputs are zeroed at the tagger."),
    )
