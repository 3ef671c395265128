from lib import *

NAME = "y10_nsa_compressed_branch"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[('scores = scores.masked_fill(~visible, float("-inf"))\n        return scores.softmax(dim=-1) @ vc',
              'scores = scores.masked_fill(~visible, torch.finfo(scores.dtype).min)\n'
              '        return (scores.softmax(dim=-1) @ vc) * visible.any(-1, keepdim=True)')],
        checks={"causal": (perturb(0, after(0, 9), 0, 80), upto(9)),
                "batch": (perturb(0, sample(0, 0), 0, 80), samp(1))},
        label=dict(expected=["fully-masked-row"], line_sub='scores = scores.masked_fill(~visible, float("-inf"))',
                   consequence_codes=["nan"],
                   why="The first block-1 queries have no complete compressed block in their past, so every compressed key is filled with -inf and their softmax row is NaN, which the gate mixes into the output and then spreads through later layers."),
    )
