from lib import *

NAME = "v22_hw_dropout_module"

def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("weights = nn.Dropout(self.p_drop)(weights)", "weights = nn.functional.dropout(weights, self.p_drop, training=self.training)")],
        checks={
            "causal": (perturb(1, after(1, 3), 1, 60), upto(3)),
            "batch": (chain(perturb(0, sample(0, 1), 1, 60), perturb(1, sample(1, 1), 1, 60)), samp(0)),
        },
        ref=solo_cut(1, {0: 6}),
        note="a Dropout module created inside forward is in training mode; ref = the padded source alone, cut to its real tokens",
        label=dict(expected=["dropout-eval"], also_ok_codes=["nondeterministic"],
                   line_sub="weights = nn.Dropout(self.p_drop)(weights)",
                   why="nn.Dropout(p) built inside forward is a fresh module in training mode: model.eval() never reaches it, so the attention weights are dropped at inference and two evaluations of the same input differ."),
    )
