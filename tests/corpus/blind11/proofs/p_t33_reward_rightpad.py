from lib import *

NAME = "t33_reward_rightpad"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(1, 0), 1, 60), perturb(2, where_eq(3, 0), 1, 60)), whole()),
            "batch": (chain(perturb(0, sample(0, 1), 1, 60), perturb(2, sample(2, 1), 1, 60)), samp(0)),
        },
        note="right padding: sum(mask) - 1 is the last real index",
        label=dict(expected=[], line_sub="last = attention_mask.sum(dim=1) - 1",
                   why="Batches are right padded, so attention_mask.sum() - 1 is each sequence's last real token; the encoder is causal with key padding, so that token never sees padding."),
    )
