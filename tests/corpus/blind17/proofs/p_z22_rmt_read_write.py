from lib import *

NAME = "z22_rmt_read_write"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 8), 0, 256), upto(8)),
            "causal_seg": (perturb(0, after(0, 5), 0, 256), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 256), samp(0)),
        },
        label=dict(line_sub="allow[M + S:, :] = True",
                   why="Write-memory tokens see the whole segment on purpose, but they only feed the next segment's read memory; segment tokens are causal among themselves, so no prediction depends on a later token of the document."),
    )
