from lib import *

NAME = "w06_swa_mqa_decoder"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("allowed = (i - j).abs() < self.window", "allowed = (j <= i) & (i - j < self.window)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 96), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 96), samp(0)),
        },
        note="the window is symmetric in |i - j|, so each token sees the next window-1 tokens",
        label=dict(expected=["causal-leak"], also_ok_codes=[], line_sub="allowed = (i - j).abs() < self.window",
                   also_subs=["out = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)"], consequence_codes=[],
                   why="A sliding-window decoder keeps keys j with i - window < j <= i. The band is written with |i - j| < window, which also admits the next window - 1 tokens: the logits at position t depend on tokens after t (they predict what they can already see)."),
    )
