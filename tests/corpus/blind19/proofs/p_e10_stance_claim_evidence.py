from lib import *

NAME = "e10_stance_claim_evidence"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: a[1] < 0, 1, 200), whole()),
            "evidence_isolation": (perturb(0, lambda a, k: a[1] == 2, 1, 200), lambda o, a, k: o[:, [0, 2]]),
            "batch": (perturb(0, sample(0, 1), 1, 200), samp(0)),
        },
        note="evidence_isolation: changing snippet 2 leaves the stance for snippets 1 and 3 unchanged",
        label=dict(line_sub="to_claim = (k == 0) & (q > 0)",
                   why="The block pair mask is intentional: claim tokens see the claim, each snippet sees the claim and itself, padding sees only itself; every real row keeps its own segment so none is empty, and snippets stay independent."),
    )
