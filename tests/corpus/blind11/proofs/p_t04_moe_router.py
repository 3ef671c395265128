from lib import *

NAME = "t04_moe_router"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 50), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=solo(2),
        note="softmax over the expert axis is the router; experts run densely, so no capacity coupling",
        label=dict(expected=[], line_sub="routing_weights = F.softmax(router_logits, dim=-1, dtype=torch.float)",
                   why="The router's softmax over experts (not keys) is by design, followed by top-2 renormalization; attention is causal SDPA, experts are applied per token."),
    )
