from lib import *

NAME = "a30_hf_biogpt_relation_extraction"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 140), whole()),
            "batch": (perturb(0, sample(0, 0), 2, 140), samp(1)),
        },
        ref=solo(2, n=7, pooled=True),
        label=dict(line_sub="last_real = attention_mask.long().sum(dim=1) - 1",
                   why="Pooling reads the two entity markers and the last real token (found from the right-padded attention_mask), all at real positions; BioGPT's causal attention plus the mask means none of them sees padding."),
    )
