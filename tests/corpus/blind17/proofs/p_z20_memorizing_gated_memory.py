from lib import *

NAME = "z20_memorizing_gated_memory"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 256), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 256), samp(0)),
        },
        label=dict(line_sub="scale = math.sqrt(q.size(-1))",
                   why="Queries and keys are L2-normalised, so a fixed temperature sqrt(d) on cosine scores replaces 1/sqrt(d) by design; the local branch uses a lower-triangular boolean mask (True = attend, diagonal kept) and memory retrieval reads only the cached keys of earlier segments."),
    )
