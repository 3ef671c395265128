from lib import *

NAME = "z35_hf_gptj_reward"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("last_hidden = hidden[:, -1, :]",
              "last_hidden = hidden[torch.arange(hidden.size(0)), attention_mask.sum(-1) - 1]")],
        checks={"padding": (perturb(0, where_eq(1, 0), 3, 128), whole())},
        ref=solo(2, 6, pooled=True),
        label=dict(expected=["padding-leak"], line_sub="last_hidden = hidden[:, -1, :]",
                   why="With right padding, position -1 is a pad token for every shorter sequence, so the reward is read from a padding state that depends on the pad content instead of from the last real token."),
    )
