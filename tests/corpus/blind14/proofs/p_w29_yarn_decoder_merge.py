from lib import *

NAME = "w29_yarn_decoder_merge"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("y = y.reshape(B, T, C)", "y = y.transpose(1, 2).reshape(B, T, C)")],
        checks={
            "causal": (perturb(0, after(0, 6), 0, 100), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 100), samp(0)),
        },
        note="",
        label=dict(expected=["head-merge"], also_ok_codes=["causal-leak"], line_sub="y = y.reshape(B, T, C)",
                   also_subs=[], consequence_codes=[],
                   why="SDPA returns (B, H, T, hd). Reshaping it straight to (B, T, C) reads head-major memory: output row t is the concatenation of positions 4t..4t+3 of head 0 (then head 1, ...) instead of all heads at position t. Early rows carry the attention outputs of later positions, so the logits at position t change with later tokens; the heads must be moved next to the features first (transpose(1, 2))."),
    )
