from lib import *

NAME = "z24_universal_act_padded"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (keep, lambda o, a, k: o[a[0] != 0], pad_row(lambda m: m.embed, 0)),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[0] != 0), 1, 200), samp(2)),
        },
        ref=refs(solo_cut(2, {0: 3}, out_cut=3), solo_cut(0, {0: 8}, out_cut=8)),
        label=dict(line_sub="acc = acc + w.unsqueeze(-1) * state",
                   why="The hop loop runs while any position of the batch is still running, yet a halted position's weight w is 0 from then on, so extra hops caused by other samples do not change it; padding starts halted and is masked on the key axis."),
    )
