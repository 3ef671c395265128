from lib import *

NAME = "x09_bigbird_block_sparse"

OLD = """        scores = scores.masked_fill(~self.pattern[:T, :T], float("-inf"))
        probs = scores.softmax(dim=-1)
        probs = probs * attention_mask[:, None, None, :].to(probs.dtype)
"""
NEW = """        keep = self.pattern[:T, :T] & attention_mask.bool()[:, None, None, :]
        scores = scores.masked_fill(~keep, float("-inf"))
        probs = scores.softmax(dim=-1)
"""


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[(OLD, NEW)],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 100), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 100), samp(0)),
        },
        ref=refs(solo(1, n=13, pooled=True), solo(2, n=9, pooled=True)),
        note="ref = each document cut to its tokens and classified alone",
        label=dict(expected=["mask-after-softmax"], also_ok_codes=["padding-leak"],
                   line_sub="probs = probs * attention_mask[:, None, None, :].to(probs.dtype)",
                   also_subs=[], consequence_codes=[],
                   why="The padding mask multiplies the probabilities after the softmax. The padded keys that the window, global or random pattern admits still took their share of the normalizer, so each real row's visible weights sum to less than 1 by an amount that depends on the padded tokens' scores: the class logits change with the content of the padding. The padding belongs in the -inf fill before the softmax."),
    )
