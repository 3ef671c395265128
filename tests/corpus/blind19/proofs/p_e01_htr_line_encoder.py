from lib import *

NAME = "e01_htr_line_encoder"


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("return x + self.pe[: x.size(0)]", "return x + self.pe[: x.size(1)].transpose(0, 1)")],
        ref=solo(2),
        note="ref: line 2 run alone vs in the batch",
        label=dict(expected=["positional-axis"], line_sub="return x + self.pe[: x.size(0)]",
                   consequence_codes=["batch-leak"],
                   why="The (max_len, 1, d) table is sliced by x.size(0), the batch size, and added to batch-first columns: each line gets one constant offset chosen by its index in the batch instead of a per-column position."),
    )
