from lib import *

NAME = "q29_longformer_global"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("        weights = torch.softmax(q @ k.transpose(-1, -2), dim=-1)\n        weights = weights * visible[:, None].to(weights.dtype)\n",
              "        scores = (q @ k.transpose(-1, -2)).masked_fill(~visible[:, None], float('-inf'))\n        weights = torch.softmax(scores, dim=-1)\n")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 60), real(1)),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 2, 60), samp(0)),
        },
        note="full softmax then zeroing out-of-window and padded keys: rows no longer sum to 1 and padded tokens' scores stay in the denominator",
        label=dict(expected=["mask-after-softmax"], line_sub="weights = weights * visible[:, None].to(weights.dtype)",
                   also_subs=["weights = torch.softmax(q @ k.transpose(-1, -2), dim=-1)"],
                   consequence_codes=["padding-leak"],
                   why="The local/global/padding visibility mask multiplies the weights after a softmax over all keys, without renormalizing; padded keys' scores remain in the denominator."),
    )
