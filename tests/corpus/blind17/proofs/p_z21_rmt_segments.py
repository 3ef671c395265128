from lib import *

NAME = "z21_rmt_segments"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("torch.cat([mem.reshape(self.num_mem, B, -1), seg], dim=0)", "torch.cat([mem.transpose(0, 1), seg], dim=0)")],
        checks={"batch": (perturb(0, sample(0, 1), 1, 300), samp(0))},
        ref=solo(2, pooled=True),
        label=dict(expected=["batch-leak"], line_sub="x = torch.cat([mem.reshape(self.num_mem, B, -1), seg], dim=0) + self.pos",
                   why="The carried memory (B, M, E) is reinterpreted as (M, B, E) with reshape instead of a transpose, so from the second segment on each document reads memory slots written for other documents of the batch."),
    )
