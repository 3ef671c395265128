from lib import *

NAME = "v49_hf_stablelm_reward"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), whole()),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(solo(0, n=7, pooled=True), solo(1, n=4, pooled=True)),
        note="ref = each right-padded response alone",
        label=dict(line_sub="last = attention_mask.sum(-1) - 1",
                   why="With right padding the last real token is at attention_mask.sum(-1) - 1; the causal model never lets it see the padding after it, and the attention mask is the library's 1 = real convention."),
    )
