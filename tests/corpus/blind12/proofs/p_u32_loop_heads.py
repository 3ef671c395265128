from lib import *

NAME = "u32_loop_heads"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("out = torch.cat(outs, dim=1).view(B, T, D)", "out = torch.cat(outs, dim=-1)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 65), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 65), samp(0)),
        },
        note="cat over dim=1 stacks heads along time, (B, H*T, hd); the view then fills row t with positions tH..tH+H-1 of the stacked table, i.e. later tokens of head 0",
        label=dict(expected=["head-merge"], line_sub="out = torch.cat(outs, dim=1).view(B, T, D)",
                   consequence_codes=["causal-leak"],
                   why="The per-head outputs are concatenated along the time axis (dim=1) and then viewed as (B, T, D), so output row t is made of H consecutive time steps of one head (t*H .. t*H+H-1) instead of all heads at step t; early positions receive later tokens' features, a causal leak."),
    )
