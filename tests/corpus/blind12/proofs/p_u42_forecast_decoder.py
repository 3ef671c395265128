from lib import *

NAME = "u42_forecast_decoder"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("attn = F.dropout(attn, p=self.dropout)", "attn = F.dropout(attn, p=self.dropout, training=self.training)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="F.dropout defaults to training=True: the attention weights are dropped (and rescaled) in eval mode too",
        label=dict(expected=["dropout-eval"], line_sub="attn = F.dropout(attn, p=self.dropout)",
                   also_ok_codes=["nondeterministic"], consequence_codes=["nondeterministic"],
                   why="The functional dropout is called without training=self.training, so it stays active after model.eval(): forecasts change from one call to the next on the same history."),
    )
