from lib import *

NAME = "g04_listwise_ranker_flat"
FIX = [("attn = scores.softmax(dim=-1) * same_list",
        "attn = scores.masked_fill(~same_list, float(\"-inf\")).softmax(dim=-1)")]


def result():
    return prove(
        NAME, "buggy", harm="batch", fix=FIX,
        checks={
            "batch": (perturb(0, lambda a, k: a[1] == 1), lambda o, a, k: o[a[1] != 1]),
            "batch2": (perturb(0, lambda a, k: a[1] == 0), lambda o, a, k: o[a[1] == 2]),
        },
        note="batch = the candidates of another query change (flat layout, qid groups)",
        label=dict(expected=["mask-after-softmax"], line_sub="attn = scores.softmax(dim=-1) * same_list",
                   also_subs=[], also_ok_codes=[], consequence_codes=["batch-leak"],
                   why="The same-query mask is applied after the softmax: the weights of other queries' candidates are zeroed but the row is not renormalised, so each row sums to less than 1 and its denominator still contains the scores of candidates from other queries. A query's scores therefore change when only another query's candidates change; the mask must be applied to the scores (-inf) before the softmax."),
    )
