from lib import *

NAME = "v03_qformer_itg_mask"

def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("mask[:Nq, :] = True", "mask[:, :Nq] = True")],
        checks={
            "causal": (perturb(1, after(1, 3), 0, 50), upto(3)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 50)), samp(0)),
        },
        note="query tokens are opened to the whole caption; captions read the queries, so every caption token sees the future",
        label=dict(expected=["causal-leak"], line_sub="mask[:Nq, :] = True",
                   also_subs=["mask = torch.ones(L, L, dtype=torch.bool, device=x.device).tril()"],
                   why="In BLIP-2's image-grounded generation mask the query tokens must not see the text (rows of queries: query columns only), while every text token sees all queries and earlier text. Setting mask[:Nq, :] opens the whole caption to the queries (the bidirectional ITM pattern); since each text token reads the queries, caption token t receives information from tokens after t through them. The intended line opens the query columns to every row: mask[:, :Nq] = True."),
    )
