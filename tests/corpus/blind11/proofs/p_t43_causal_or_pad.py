from lib import *

NAME = "t43_causal_or_pad"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return causal | key_ok", "return causal & key_ok")],
        checks={
            "causal": (perturb(0, both(after(0, 4), lambda a, k: get(a, k, 1) == 1), 1, 50), upto(4)),
            "padding": (perturb(0, where_eq(1, 0), 1, 50), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 50), samp(0)),
        },
        ref=solo(2, n=6),
        note="| instead of &: a key is visible if it is in the past OR real, so every real future token is visible",
        label=dict(expected=["causal-leak"], line_sub="return causal | key_ok",
                   also_ok_codes=["padding-leak"],
                   consequence_codes=["padding-leak"],
                   why="The two boolean 'may attend' masks must be intersected; their union lets each query see all real tokens, future included, and past padded ones."),
    )
