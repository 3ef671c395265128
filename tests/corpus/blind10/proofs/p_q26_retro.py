from lib import *

NAME = "q26_retro"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(1, where_eq(2, False), 1, 50), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 50), samp(0)),
        },
        note="each chunk attends to its own k retrieved neighbours; bool SDPA mask True = attend = real neighbour token",
        label=dict(expected=[], line_sub="out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)",
                   also_subs=['mask = rearrange(retrieved_mask, "b c k r -> (b c) 1 1 (k r)")'],
                   why="The boolean mask is True at real neighbour tokens, which is SDPA's keep convention; it varies over keys only; every neighbour has at least 2 real tokens."),
    )
