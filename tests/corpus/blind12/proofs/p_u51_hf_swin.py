from lib import *

NAME = "u51_hf_swin"
logits = lambda o: o[0]


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        pick=logits,
        ref=refs(solo(0, pick=logits), solo(1, pick=logits)),
        label=dict(expected=[], line_sub="out = self.backbone(pixel_values=pixel_values)",
                   why="Swin as the library ships it: window attention with a cyclic shift whose wrapped-around windows are separated by a -100 additive mask (a soft mask that suffices against bounded scores, by design); no padding, images are independent and each equals itself run alone."),
    )
