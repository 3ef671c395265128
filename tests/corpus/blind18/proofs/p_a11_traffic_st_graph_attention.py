from lib import *

NAME = "a11_traffic_st_graph_attention"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6)), upto(6)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        label=dict(line_sub="adj = adj.bool() | torch.eye(adj.size(0), dtype=torch.bool, device=adj.device)",
                   why="Temporal attention is causal per sensor (is_causal on a (B, N, T, T) table); spatial attention uses the road graph as SDPA's boolean mask (True = attend) with self-loops added, so the isolated sensor 4 still sees itself and no row is empty."),
    )
