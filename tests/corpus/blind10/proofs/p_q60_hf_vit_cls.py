from lib import *

NAME = "q60_hf_vit_cls"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="tiny random ViTModel; CLS + mean over the 16 patch tokens (no padding exists in fixed-size images)",
        label=dict(expected=[], line_sub="feats = torch.cat([cls, patches.mean(dim=1)], dim=-1)  # no padding in images: plain mean is fine",
                   why="Fixed-size images have no padding tokens, so an unmasked mean over the patch tokens (excluding CLS) is correct."),
    )
