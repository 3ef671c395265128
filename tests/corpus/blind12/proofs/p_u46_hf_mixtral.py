from lib import *

NAME = "u46_hf_mixtral"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), whole()),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(solo(1, n=6, left=True, pooled=True), solo(2, n=3, left=True, pooled=True)),
        label=dict(expected=[], line_sub="position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)",
                   why="Left-padded prompts with the mask passed to the model and position ids counted from each prompt's first real token, as generate() does; the last column is every prompt's last real token. Mixtral's top-2 routing is per token (no capacity limit), so padding tokens' routing cannot affect real tokens. Each prompt's scores equal the prompt alone."),
    )
