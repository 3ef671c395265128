from lib import *

NAME = "y29_resformer_value_residual"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("attn = F.dropout(scores.softmax(dim=-1), self.attn_pdrop)",
              "attn = F.dropout(scores.softmax(dim=-1), self.attn_pdrop, training=self.training)")],
        checks={},
        label=dict(expected=["dropout-eval"], line_sub="attn = F.dropout(scores.softmax(dim=-1), self.attn_pdrop)",
                   also_ok_codes=["nondeterministic"],
                   why="F.dropout defaults to training=True, so the attention-probability dropout keeps firing after model.eval(): two inference passes on the same tokens give different logits."),
    )
