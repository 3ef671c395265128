from lib import *

NAME = "t40_hf_vit"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=solo(2, pooled=True),
        note="no padding in images: the mean over patch tokens is a plain mean",
        label=dict(expected=[], line_sub="feats = torch.cat([hidden[:, 0], hidden[:, 1:].mean(dim=1)], dim=-1)",
                   why="ViT: every patch is real, so averaging patch tokens (excluding CLS) is correct; samples are independent."),
    )
