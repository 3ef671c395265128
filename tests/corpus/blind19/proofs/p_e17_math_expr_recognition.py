from lib import *

NAME = "e17_math_expr_recognition"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("a = F.dropout(s.softmax(-1), self.p)", "a = F.dropout(s.softmax(-1), self.p, training=self.training)")],
        checks={"causal": (perturb(1, after(1, 5), 0, 110), upto(5))},
        label=dict(expected=["dropout-eval"], line_sub="a = F.dropout(s.softmax(-1), self.p)",
                   consequence_codes=["nondeterministic"],
                   why="F.dropout defaults to training=True, so the attention weights are randomly dropped (and rescaled) even after model.eval(); two decodes of the same formula differ."),
    )
