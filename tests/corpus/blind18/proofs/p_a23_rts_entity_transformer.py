from lib import *

NAME = "a23_rts_entity_transformer"


def pick(o):
    sel, val = o
    return torch.cat([sel, val.unsqueeze(-1)], -1)


def region(o, a, k):
    m = torch.cat([a[2].bool(), torch.ones(a[2].size(0), 1, dtype=torch.bool)], -1)
    return o[m]


def result():
    return prove(
        NAME, "correct", pick=pick,
        checks={
            "padding": (chain(perturb(1, where_eq(2, 0)), perturb(0, where_eq(2, 0), 0, 10)), region),
            "batch": (perturb(1, sample(1, 0)), samp(1)),
        },
        label=dict(line_sub="pooled = x.masked_fill(~real.unsqueeze(-1), float(\"-inf\")).amax(dim=1)",
                   why="SDPA gets a boolean mask with True = real unit, broadcast along the key axis; the max-pool fills padded units with -inf (every observation has at least one unit) and the selection head gives padded units -1e9, so real outputs never depend on padded slots."),
    )
