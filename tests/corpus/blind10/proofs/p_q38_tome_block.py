from lib import *

NAME = "q38_tome_block"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("attn = F.dropout(attn.softmax(dim=-1), self.attn_drop)",
              "attn = F.dropout(attn.softmax(dim=-1), self.attn_drop, training=self.training)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="functional dropout on the attention weights defaults to training=True: two eval passes differ",
        label=dict(expected=["dropout-eval"], line_sub="attn = F.dropout(attn.softmax(dim=-1), self.attn_drop)",
                   consequence_codes=["nondeterministic"],
                   why="F.dropout is called without training=self.training, so attention dropout stays active in eval mode and inference is random."),
    )
