from lib import *

NAME = "y38_int8_cross_attn_cache"


def result():
    return prove(
        NAME, "correct",
        checks={"causal": (perturb(1, after(1, 5), 1, 120), upto(5)),
                "padding": (keep, whole(), pad_row(lambda m: m.embed, 0)),
                "batch": (chain(perturb(0, both(sample(0, 0), lambda a, k: a[0] != 0), 1, 120), perturb(1, sample(1, 0), 1, 120)), samp(1))},
        ref=solo_cut(1, {0: 11}),
        note="ref: sample 1 with its unpadded 11-token source gives the same logits",
        label=dict(line_sub='scale = x.abs().amax(dim=-1, keepdim=True).clamp(min=1e-6) / 127.0',
                   why="The int8 scale is taken per (sample, head, source token) over the head features only, so quantisation never mixes samples or positions; the cross mask is True = attend (SDPA's convention) on real source tokens, and the self-attention cache only holds past steps."),
    )
