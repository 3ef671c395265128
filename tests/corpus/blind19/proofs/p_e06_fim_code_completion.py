from lib import *

NAME = "e06_fim_code_completion"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, both(after(0, 12), lambda a, k: a[0] >= 4), 4, 120), upto(12)),
            "batch": (perturb(0, both(sample(0, 1, lead=2), lambda a, k: a[0] >= 4), 4, 120), samp(0)),
        },
        ref=refs(solo(1, n=12, left=True), solo(2, n=13, left=True)),
        note="ref: left-padded sequences run alone without their padding",
        label=dict(line_sub="allow = causal[None] & keep[:, None, :]",
                   why="PSM-format FIM is trained as a plain causal LM over the rearranged sequence; left padding is removed from the keys, positions restart at the first real token, and pad query rows keep only their own diagonal so no row is empty."),
    )
