from lib import *

NAME = "g15_hf_beit_dermoscopy"
FIX = [("illum = x.pow(p).mean(dim=(0, 2, 3), keepdim=True).pow(1.0 / p)",
        "illum = x.pow(p).mean(dim=(2, 3), keepdim=True).pow(1.0 / p)")]


def result():
    return prove(
        NAME, "buggy", harm="batch", fix=FIX,
        checks={
            "batch": (perturb(0, sample(0, 1), 0, 256), lambda o, a, k: o[[0, 2]]),
            "batch0": (perturb(0, sample(0, 0), 0, 256), lambda o, a, k: o[1:]),
        },
        ref=solo(0),
        note="ref = image 0 classified alone gives the same logits as in the batch",
        label=dict(expected=["batch-leak"], line_sub="illum = x.pow(p).mean(dim=(0, 2, 3), keepdim=True).pow(1.0 / p)",
                   also_subs=[], also_ok_codes=[], consequence_codes=[],
                   why="The Shades of Gray illuminant is averaged over dim 0 as well, so one colour correction is estimated from the whole batch and applied to every image; a lesion's prediction changes with the other images in the batch. Colour constancy must be estimated per image, over (H, W) only."),
    )
