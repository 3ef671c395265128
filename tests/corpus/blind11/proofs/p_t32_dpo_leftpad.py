from lib import *

NAME = "t32_dpo_leftpad"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("rewards[torch.arange(B), sequence_lengths]", "rewards[:, -1]")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 60), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 60), samp(0)),
        },
        ref=solo(2, n=4, left=True, pooled=True),
        note="mask.sum - 1 is the last real index only for right padding; on left padding it points into the padding",
        label=dict(expected=["padding-leak"], line_sub="return rewards[torch.arange(B), sequence_lengths]",
                   also_subs=["sequence_lengths = attention_mask.sum(dim=-1) - 1"],
                   why="Batches are left padded, so the last real token is at index -1; attention_mask.sum() - 1 indexes into the padding for every shorter sample, and the reward read there depends on the pad tokens."),
    )
