from lib import *

NAME = "e18_sci_figure_classifier"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=solo(2),
        note="ref: image 2 classified alone",
        label=dict(line_sub="sd = patches.std(dim=1)",
                   why="The statistics token pools over the patches of each image (dim 1), deliberately: an image-level summary token, computed per sample, so there is no coupling across the batch."),
    )
