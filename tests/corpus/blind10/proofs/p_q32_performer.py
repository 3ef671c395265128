from lib import *

NAME = "q32_performer"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, False), 1, 40), whole()),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, True)), 1, 40), samp(0)),
        },
        note="FAVOR+ with a fixed random projection buffer (deterministic); padded keys' features zeroed before the sums; masked mean pool. key stabilizer max taken over real keys only (with +eps it would otherwise not cancel)",
        label=dict(expected=[], line_sub="k = k * key_mask[:, None, :, None]",
                   also_subs=['self.register_buffer("projection", torch.randn(nb_features, dim_head, generator=g))'],
                   why="Linear attention: multiplying the key features by the 0/1 mask is the right way to drop keys here (no softmax); random features are a fixed buffer, so eval is deterministic."),
    )
