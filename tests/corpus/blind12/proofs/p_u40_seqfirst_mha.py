from lib import *

NAME = "u40_seqfirst_mha"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("return t.contiguous().view(bsz * self.num_heads, -1, self.head_dim)",
              "return t.contiguous().view(-1, bsz * self.num_heads, self.head_dim).transpose(0, 1)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 56), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 56), samp(0)),
        },
        note="viewing a (T, B, C) tensor as (B*H, T, d) makes each 'row' of the folded batch a slice of consecutive (time, batch) entries",
        label=dict(expected=["head-split"], line_sub="return t.contiguous().view(bsz * self.num_heads, -1, self.head_dim)",
                   consequence_codes=["batch-leak", "causal-leak"],
                   why="The input is time-first (T, B, C): the heads must be split as view(T, B*H, d) and then transposed to (B*H, T, d). Viewing it directly as (B*H, T, d) makes the new 'time' axis step through batch and head slots of consecutive time steps, so one folded row mixes samples, heads and positions: samples read each other and earlier positions read later ones."),
    )
