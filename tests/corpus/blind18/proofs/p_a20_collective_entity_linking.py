from lib import *

NAME = "a20_collective_entity_linking"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[(".unsqueeze(1).repeat(self.h, 1, 1)", ".unsqueeze(1).repeat_interleave(self.h, dim=0)")],
        checks={"padding": (perturb(0, where_eq(3, 0)), real(3)),
                "batch": (chain(perturb(0, sample(0, 1)), perturb(3, sample(3, 1), 0, 2)), samp(0))},
        ref=solo(2, n=4),
        label=dict(expected=["mask-axis"], line_sub="key_pad = (cand_mask == 0).unsqueeze(1).repeat(self.h, 1, 1)",
                   consequence_codes=["batch-leak", "padding-leak"],
                   why="Heads are folded batch-major (index b*h + head), but repeat tiles the (B, 1, C) mask sample-major, so row b*h + head gets the mask of sample (b*h + head) mod B: a document's candidates are masked with another document's padding pattern."),
    )
