from lib import *

NAME = "v05_xlnet_two_stream"

P_POS = 4


def later_in_order(a, k):
    rank = a[1]
    return rank >= rank[:, P_POS:P_POS + 1]


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("query_mask = torch.cat([mem_col, before_or_self], dim=-1)",
              "query_mask = torch.cat([mem_col, rank[:, None, :] < rank[:, :, None]], dim=-1)")],
        checks={
            "causal": (perturb(0, later_in_order, 0, 40), lambda o, a, k: o[:, P_POS]),
            "batch": (perturb(0, sample(0, 1), 0, 40), samp(0)),
        },
        note="causal in the factorization order: the prediction at position 4 must not depend on its own token or on tokens later in the order",
        label=dict(expected=["causal-leak"],
                   line_sub="query_mask = torch.cat([mem_col, before_or_self], dim=-1)",
                   also_subs=["before_or_self = rank[:, None, :] <= rank[:, :, None]      # key j not after query i"],
                   why="In two-stream attention only the content stream may see its own position; the query stream, which predicts token i, must see keys strictly earlier in the factorization order (rank[j] < rank[i]). Reusing the content mask (<=) lets the query stream read the content of its own position, so every prediction sees the token it has to predict (and, from the second layer on, content states that are not earlier in the order)."),
    )
