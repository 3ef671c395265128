from lib import *

NAME = "t50_head_merge"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("out = out.contiguous().view(bsz, seqlen, -1)", "out = out.transpose(1, 2).contiguous().view(bsz, seqlen, -1)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 64), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        note="(B, H, T, hd) viewed as (B, T, H*hd) without the transpose: output row t concatenates head outputs of several positions",
        label=dict(expected=["head-merge"], line_sub="out = out.contiguous().view(bsz, seqlen, -1)",
                   consequence_codes=["causal-leak"],
                   why="Merging heads needs transpose(1, 2) before the view; viewing (B, H, T, d_h) as (B, T, H*d_h) makes output position t hold head t//3's results for positions 4(t mod 3) to 4(t mod 3)+3, so early positions receive later tokens' attention outputs."),
    )
