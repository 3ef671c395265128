from lib import *

NAME = "t26_wav2vec2_padding"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0)), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=solo(2, n=41, pooled=True),
        note="frame mask from the exact conv length formula: a frame is real only if its whole receptive field is real audio",
        label=dict(expected=[], line_sub="lengths = torch.div(lengths - kernel, stride, rounding_mode=\"floor\") + 1",
                   why="Frame lengths follow floor((L - k) / s) + 1 through every conv, so no real frame's receptive field reaches padded samples; the layer-norm extractor normalizes per frame (not over time); key padding and masked mean pooling use the frame mask."),
    )
