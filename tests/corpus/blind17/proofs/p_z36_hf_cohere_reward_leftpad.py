from lib import *

NAME = "z36_hf_cohere_reward_leftpad"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 7, 128), whole()),
            "batch": (perturb(0, sample(0, 1), 7, 128), samp(0)),
        },
        ref=refs(solo(2, 5, left=True, pooled=True), solo(1, 8, left=True, pooled=True)),
        label=dict(line_sub="return self.value_head(out.last_hidden_state[:, -1]).squeeze(-1)",
                   why="The batch is left-padded, so position -1 is the last real token of every row; position ids come from the mask's cumulative sum, so the value of a padded rollout equals the value of the same rollout run alone."),
    )
