from lib import *

NAME = "v02_sdpa_gqa_float_mask"

def result():
    pads = where_eq(1, 0)
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attn_mask = attention_mask[:, None, None, :].to(q.dtype)", "attn_mask = attention_mask[:, None, None, :].bool()")],
        checks={
            "padding": (perturb(0, pads, 1, 100), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 100), samp(0)),
        },
        note="a float attn_mask is added to the scores: +1 on real keys, +0 on padded keys, nothing is suppressed",
        label=dict(expected=["mask-value"], also_ok_codes=["padding-leak"],
                   line_sub="attn_mask = attention_mask[:, None, None, :].to(q.dtype)",
                   why="scaled_dot_product_attention treats a floating-point attn_mask as an additive bias. Casting the 0/1 attention mask to float adds 1 to real keys and 0 to padded ones, so the padded keys keep almost their full weight; a boolean mask (True = attend) or a 0/-inf bias is needed. The pooled embedding changes with the pad tokens."),
    )
