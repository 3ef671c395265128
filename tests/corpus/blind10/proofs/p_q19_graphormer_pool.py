from lib import *

NAME = "q19_graphormer_pool"


def result():
    pad = where_eq(4, False)
    return prove(
        NAME, "buggy", harm="nan",
        fix=[('scores = scores.masked_fill(~pair[:, None], float("-inf"))',
              'scores = scores.masked_fill(~pair[:, None], torch.finfo(scores.dtype).min)')],
        checks={
            "padding": (perturb(0, pad, 1, 12), whole()),
            "batch": (perturb(0, both(sample(0, 2), where_eq(4, True)), 1, 12), samp(0)),
        },
        note="padded node query rows have every key at -inf -> NaN rows; next layer multiplies NaN values by 0 weights and the masked mean pool (NaN*0) carries NaN into the graph output",
        label=dict(expected=["nan"], line_sub='scores = scores.masked_fill(~pair[:, None], float("-inf"))',
                   also_subs=["pair = node_mask[:, :, None] & node_mask[:, None, :]", "pooled = (h * m).sum(1) / m.sum(1).clamp(min=1.0)"],
                   also_ok_codes=["fully-masked-row"],
                   why="Padded nodes' query rows are all -inf, the softmax turns them into NaN, and the NaN spreads through the next layer's attention and the masked mean pool (NaN * 0), so padded molecules predict NaN."),
    )
