from lib import *

NAME = "f10_dynamic_token_pooling"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("seg = (b.flatten().cumsum(0) - b.flatten()).view(B, T).long()",
              "seg = (b.cumsum(1) - b).long() + torch.arange(B, device=ids.device)[:, None] * T")],
        checks={
            "batch": (perturb(0, sample(0, 0), 0, 256), samp(1)),
            "batch_last": (perturb(0, sample(0, 1), 0, 256), samp(2)),
            "causal": (perturb(0, after(0, 9), 0, 256), upto(9)),
        },
        ref=refs(solo(1), solo(2)),
        note="ref = sequences 1 and 2 run alone vs in the batch",
        label=dict(expected=["batch-leak"], line_sub="seg = (b.flatten().cumsum(0) - b.flatten()).view(B, T).long()",
                   also_subs=["short = (sums / counts.clamp(min=1.0)[:, None]).view(B, T, -1)"], also_ok_codes=[], consequence_codes=["causal-leak"],
                   why="The segment counter is a cumulative sum over the flattened batch, so it runs across sample boundaries: the first bytes of a sequence join the last segment of the previous sequence, and the pooled rows no longer line up with row b*T + s. Shortened tokens of one sequence are pooled and attended together with another sequence's bytes (and, once rows are misaligned, with later bytes too)."),
    )
