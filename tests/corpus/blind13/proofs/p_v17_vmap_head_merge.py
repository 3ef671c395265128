from lib import *

NAME = "v17_vmap_head_merge"

def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("out = out.reshape(B, T, D)", "out = out.transpose(1, 2).reshape(B, T, D)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 50), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        note="vmap with out_dims=1 returns (B, H, T, d_head)",
        label=dict(expected=["head-merge"], line_sub="out = out.reshape(B, T, D)",
                   also_subs=["out = vmap(single_head, in_dims=1, out_dims=1)(q, k, v)       # (B, H, T, d_head)"],
                   why="With out_dims=1 vmap stacks the per-head results on axis 1, (B, H, T, d_head). Reshaping that straight to (B, T, D) makes output row t the concatenation of several time steps of one head, so position t receives the attention results of later positions (e.g. row 0 holds head 0 at times 0..3)."),
    )
