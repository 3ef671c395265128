from lib import *

NAME = "q35_mod_routing"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 50), real(1)),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 1, 50), samp(0)),
        },
        note="top-k per sequence (dim=1), padded tokens get -inf router logits and every sequence has >= capacity real tokens",
        label=dict(expected=[], line_sub="top = logits.topk(self.capacity, dim=1).indices.sort(dim=1).values  # keep sequence order",
                   why="Routing is per sequence (top-k along the token axis), pads are never chosen, and the routed block's attention gets the key padding mask of the selected tokens."),
    )
