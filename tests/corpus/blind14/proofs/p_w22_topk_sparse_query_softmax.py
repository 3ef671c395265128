from lib import *

NAME = "w22_topk_sparse_query_softmax"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("attn = torch.softmax(sparse, dim=1)", "attn = torch.softmax(sparse, dim=-1)")],
        checks={
            "causal": (perturb(0, after(0, 6), 0, 64), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        note="softmax over the query axis normalizes each key's column over all queries, later ones included",
        label=dict(expected=["softmax-axis"], also_ok_codes=["causal-leak"], line_sub="attn = torch.softmax(sparse, dim=1)",
                   also_subs=[], consequence_codes=[],
                   why="sparse is (B*H, T_q, T_k) and bmm(attn, v) contracts its last axis, so the softmax belongs on dim=-1. dim=1 normalizes every key's column over the queries: the weight query t gives key j depends on the scores of later queries, and columns that no query kept become uniform over all queries, so earlier positions read later values. Logits at position t change with tokens after t."),
    )
