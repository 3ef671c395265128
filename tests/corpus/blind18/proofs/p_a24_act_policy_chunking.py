from lib import *

NAME = "a24_act_policy_chunking"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("tokens = F.dropout(tokens, self.p_drop)", "tokens = F.dropout(tokens, self.p_drop, training=self.training)")],
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0))},
        label=dict(expected=["dropout-eval"], line_sub="tokens = F.dropout(tokens, self.p_drop)",
                   consequence_codes=["nondeterministic"],
                   why="F.dropout defaults to training=True, so the observation tokens are dropped at inference too and the predicted action chunk changes from call to call in eval mode."),
    )
