from lib import *

NAME = "z39_hf_data2vec_cls_head"


def result():
    return prove(
        NAME, "buggy", harm="random",
        fix=[("x = F.dropout(x, p=self.p)", "x = self.dropout(x)")],
        checks={"batch": (perturb(0, lambda a, k: (torch.arange(3)[:, None] == 2) & (torch.arange(11)[None] > 0), 3, 120), samp(0))},
        label=dict(expected=["dropout-eval"], line_sub="x = F.dropout(x, p=self.p)",
                   why="F.dropout defaults to training=True, so the second dropout of the head stays active after model.eval() and the topic logits change on every call."),
    )
