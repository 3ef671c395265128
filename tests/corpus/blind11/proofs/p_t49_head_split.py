from lib import *

NAME = "t49_head_split"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return t.reshape(B, n_head, T, C // n_head)", "return t.view(B, T, n_head, C // n_head).transpose(1, 2)")],
        checks={
            "causal": (perturb(0, after(0, 7), 0, 40), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 40), samp(0)),
        },
        note="reshape(B, H, T, hd) on (B, T, C): each 'head row' holds features of 4 consecutive tokens, so the causal mask no longer matches token order",
        label=dict(expected=["head-split"], line_sub="return t.reshape(B, n_head, T, C // n_head)",
                   consequence_codes=["causal-leak"],
                   why="Splitting heads with reshape(B, H, T, d_h) directly on (B, T, C) makes the new 'sequence' axis mix token and feature positions (row t of head h holds pieces of tokens 4h + t//4 ...), so the triangular mask lets early positions read later tokens."),
    )
