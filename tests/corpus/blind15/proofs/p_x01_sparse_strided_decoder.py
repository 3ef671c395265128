from lib import *

NAME = "x01_sparse_strided_decoder"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("strided = (i - j) % self.stride == 0", "strided = (j <= i) & ((i - j) % self.stride == 0)")],
        checks={
            "causal": (perturb(0, after(0, 6), 0, 96), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 96), samp(0)),
        },
        note="(i - j) % stride == 0 also holds for j = i + stride, i + 2*stride, ...: the strided heads read future characters",
        label=dict(expected=["causal-leak"], also_ok_codes=[], line_sub="strided = (i - j) % self.stride == 0",
                   also_subs=[], consequence_codes=[],
                   why="The strided heads keep keys with (i - j) % stride == 0 but, unlike the local heads, without j <= i; the remainder is also 0 for j = i + 4, i + 8, ..., so each query attends to every 4th future character. The logits at position t change with characters after t."),
    )
