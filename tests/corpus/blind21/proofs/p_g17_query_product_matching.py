from lib import *

NAME = "g17_query_product_matching"
FIX = [("torch.finfo(scores.dtype).tiny)", "torch.finfo(scores.dtype).min)")]


def result():
    return prove(
        NAME, "buggy", harm="padding", fix=FIX,
        checks={
            "padding": (chain(perturb(2, where_eq(3, 0), 1, 300), perturb(0, where_eq(1, 0), 1, 300)), whole()),
            "batch": (chain(perturb(0, sample(0, 1), 1, 300), perturb(2, sample(2, 1), 1, 300)), lambda o, a, k: o[[0, 2]]),
        },
        note="padding = ids under attention_mask == 0 changed",
        label=dict(expected=["mask-value"], line_sub="scores = scores.masked_fill(~title_mask.bool()[:, None, None, :], torch.finfo(scores.dtype).tiny)",
                   also_subs=[], also_ok_codes=[], consequence_codes=["padding-leak"],
                   why="torch.finfo(dtype).tiny is the smallest positive normal number (~1.2e-38), not the most negative one: padded title keys get a score of about 0, comparable to real scores, so they keep a large share of the softmax. Padded title tokens therefore change the relevance logits; the fill must be finfo.min (or -inf)."),
    )
