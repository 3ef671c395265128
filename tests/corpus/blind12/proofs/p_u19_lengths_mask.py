from lib import *

NAME = "u19_lengths_mask"
pads = lambda a, k: torch.arange(get(a, k, 0).size(1))[None] >= get(a, k, 1)[:, None]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("return frames > lengths[:, None]", "return frames >= lengths[:, None]")],
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(solo(1, n=9, pooled=True), solo(2, n=5, pooled=True)),
        note="frame index == length is the first padded frame, but the mask keeps it: one padded frame is attended to and pooled",
        label=dict(expected=["padding-leak"], line_sub="return frames > lengths[:, None]",
                   also_subs=["pad = lengths_to_padding_mask(lengths, T)"],
                   why="Frames 0..length-1 are real, so the padding mask must be frames >= length; with > the first padded frame of every shorter utterance is treated as real, attended to by every frame and included in the mean."),
    )
