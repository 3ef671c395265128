from lib import *

NAME = "y27_trajectory_transformer"


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("x = x + self.pos_emb[: x.size(0)]", "x = x + self.pos_emb[: x.size(1)].transpose(0, 1)")],
        checks={"causal": (perturb(0, after(0, 11), 0, 20), upto(11)),
                "batch": (perturb(0, sample(0, 0), 0, 20), samp(1))},
        ref=solo(1),
        note="ref: sample 1 run alone must give the same logits as in the batch",
        label=dict(expected=["positional-axis"], line_sub="x = x + self.pos_emb[: x.size(0)]",
                   why="The (block_size, 1, dim) position table is sliced by x.size(0), the batch size, on batch-first input, so each sample gets one constant vector for all its tokens: positions are not encoded and a sample's logits depend on its index in the batch."),
    )
