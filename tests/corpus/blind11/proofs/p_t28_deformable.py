from lib import *

NAME = "t28_deformable"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=solo(1, pooled=True),
        note="weights softmaxed over the sampling points of each head; heads folded into the batch of grid_sample and unfolded in the same order",
        label=dict(expected=[], line_sub='sampled = F.grid_sample(v, grid, mode="bilinear", padding_mode="zeros", align_corners=False)  # (B*h, dh, Lq, P)',
                   why="Deformable attention: a softmax over each head's sampling points (the 'keys' here), offsets normalized by (W, H) in x, y order for grid_sample, heads folded into grid_sample's batch as (B, h) and unfolded the same way; samples stay independent."),
    )
