from lib import *

NAME = "u22_video_causal3d"


def first_frame_as_image(mod):
    """the first frame alone (a 1-frame clip) must give the same tokens as inside the clip"""
    model, args, kw = build(mod)
    full = run(model, args, kw)
    one = run(model, (args[0][:, :, :1],), {})
    return maxdiff(full[:, :1], one)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 2, dim=2)), upto(2)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=first_frame_as_image,
        label=dict(expected=[], line_sub='x = F.pad(x, (0, 0, 0, 0, self.kt - 1, 0), mode="replicate")',
                   why="Time is padded only in front (replicating the first frame) and the temporal attention is causal, so frame t's tokens depend only on frames <= t; the first frame encodes as an image. Spatial attention over all tokens of a frame is by design."),
    )
