from lib import *

NAME = "x02_sparse_fixed_pattern"


def ref(mod):
    """the mask is lower-triangular and every row keeps its diagonal"""
    m = mod.fixed_pattern(20, 4, 1)
    tri = torch.tril(torch.ones(20, 20, dtype=torch.bool))
    return float((m & ~tri).any()) + float((~m.diagonal()).any())


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 9), 0, 256), upto(9)),
            "batch": (perturb(0, sample(0, 1), 0, 256), samp(0)),
        },
        ref=ref,
        note="ref = 1 if the pattern admits a future key or hides a diagonal, else 0",
        label=dict(line_sub="return causal & (same_block | summary)",
                   why="The fixed pattern is intersected with the causal triangle: a query sees earlier keys of its own block and the summary column of each earlier block; SDPA's boolean mask means True = attend, and the diagonal is always kept, so no row is empty."),
    )
