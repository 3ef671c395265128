from lib import *

NAME = "a08_sits_temporal_encoder_positions"


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("return x + self.pe[: x.size(0)]", "return x + self.pe[: x.size(1)].transpose(0, 1)")],
        ref=refs(solo(1), solo(3)),
        label=dict(expected=["positional-axis"], line_sub="return x + self.pe[: x.size(0)]",
                   why="The (max_len, 1, d) table is sliced by x.size(0) and added to batch-first input: each pixel gets one constant vector chosen by its batch index, and time positions are not encoded, so a pixel's prediction depends on where it sits in the batch."),
    )
