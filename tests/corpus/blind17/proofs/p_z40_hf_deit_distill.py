from lib import *

NAME = "z40_hf_deit_distill"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=solo(2, pooled=True),
        label=dict(line_sub="return (self.cls_head(seq[:, 0]) + self.dist_head(seq[:, 1])) / 2",
                   why="Averaging the [CLS] head (token 0) and the distillation head (token 1) is DeiT's inference rule; the model is in eval, so the configured dropouts are inactive, and images are independent."),
    )
