from lib import *

NAME = "w40_ipadapter_decoupled"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(1, lambda a, k: a[2] == 0), whole()),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1)), perturb(3, sample(3, 1))), samp(0)),
        },
        ref=solo_cut(2, {1: 3, 2: 3}),
        note="ref = sample 2 alone with its text cut to its 3 real tokens",
        label=dict(line_sub="out = self._sdpa(q, text, self.to_kv, text_mask[:, None, None, :].bool())",
                   why="The tokenizer's mask (1 = real) becomes a boolean SDPA mask, whose convention is True = attend, broadcast over heads and queries along the key axis; dropout_p is zero outside training; the image-prompt branch has its own key/value weights and no mask (its tokens are never padding)."),
    )
