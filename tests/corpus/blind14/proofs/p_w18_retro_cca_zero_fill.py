from lib import *

NAME = "w18_retro_cca_zero_fill"


def chunk_nbrs(c):
    return lambda a, k: (torch.arange(a[1].size(1)) == c)[None, :].expand(a[1].shape[:2])


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("scores = scores.masked_fill(~keep[:, :, None, None, :], 0.0)",
              "scores = scores.masked_fill(~keep[:, :, None, None, :], float(\"-inf\"))")],
        checks={
            "padding": (perturb(1, lambda a, k: ~a[2]), whole()),
            "causal": (perturb(0, after(0, 5), 0, 90), upto(5)),
            "retrieval_causal": (perturb(1, chunk_nbrs(1)), upto(7)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 90), perturb(1, sample(1, 1))), samp(0)),
        },
        note="retrieval_causal = the neighbours of chunk 1 may only reach chunk 2 (positions >= 8)",
        label=dict(expected=["mask-value"], also_ok_codes=["padding-leak"],
                   line_sub="scores = scores.masked_fill(~keep[:, :, None, None, :], 0.0)",
                   also_subs=[], consequence_codes=[],
                   why="The padded positions of the retrieved neighbours are filled with score 0 before the softmax. 0 is an ordinary score, so padded neighbour tokens keep a normal share of the attention and their (arbitrary) encoder states are mixed into every token of the next chunk. The fill value must be -inf (or the dtype minimum)."),
    )
