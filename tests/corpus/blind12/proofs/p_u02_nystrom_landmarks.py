from lib import *

NAME = "u02_nystrom_landmarks"


def result():
    pads = lambda a, k: ~get(a, k, 1)
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 1, 40), real(1, keep=True)),
            "batch": (perturb(0, sample(0, 1), 1, 40), samp(0)),
        },
        label=dict(expected=[], line_sub="q_land = q.reshape(b, h, m, n // m, dh).mean(dim=-2)",
                   why="Nystromformer's landmarks are segment means along the sequence axis by design; queries, keys and values are zeroed at padding first and padded keys are masked in the third kernel, so real tokens never see pad content; the pinv initialisation is normalised per matrix (amax over its own rows/columns), not over the batch; the softmax over landmarks (kernels 1 and 2) is by design."),
    )
