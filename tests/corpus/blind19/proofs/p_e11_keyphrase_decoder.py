from lib import *

NAME = "e11_keyphrase_decoder"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("ctx = ctx.contiguous().view(B, Lq, D)", "ctx = ctx.transpose(1, 2).contiguous().view(B, Lq, D)")],
        checks={"causal": (perturb(1, after(1, 3), 1, 150), upto(3))},
        label=dict(expected=["head-merge"], line_sub="ctx = ctx.contiguous().view(B, Lq, D)",
                   consequence_codes=["causal-leak", "batch-leak"],
                   why="The (B, H, L, d_k) context is viewed straight to (B, L, D) without moving the head axis back, so each merged row is built from several target positions of one head, including later ones."),
    )
