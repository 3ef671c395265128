from lib import *

NAME = "x29_performer_favor"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: ~a[1], 1, 128), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1]), 1, 128), samp(0)),
        },
        ref=refs(solo(1, n=15, pooled=True), solo(2, n=8, pooled=True)),
        note="ref = each review cut to its tokens and classified alone",
        label=dict(line_sub="context = torch.einsum(\"bhnm,bhnd->bhmd\", k, v)",
                   why="FAVOR+ has no softmax: positive random features phi(q), phi(k) replace exp(q.k/sqrt(d)) (the data are scaled by d^-1/4 each) and the row normalizer is phi(q).sum_n phi(k_n). Padded keys have their features zeroed and are excluded from the key stabilizer, so they add nothing to the context or the normalizer; the features are a buffer drawn once."),
    )
