from lib import *

NAME = "v44_unfold_local_windows"

CENTER = 6


def far(a, k):
    t = torch.arange(a[0].size(1))
    return ((t - CENTER).abs() > 4)[None, :].expand(a[0].shape[:2])


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: ~a[1]), lambda o, a, k: o[a[1]]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
            "window": (perturb(0, far), lambda o, a, k: o[:, CENTER]),
        },
        note="window = two layers of radius 2: position 6 must not depend on positions more than 4 away",
        label=dict(line_sub="s = s.masked_fill(~ok[:, :, None, :], torch.finfo(s.dtype).min)",
                   why="The validity mask is padded and unfolded exactly like the keys, so slots on the zero edge padding and on padded tokens are removed; finfo.min keeps fully masked pad rows finite. Limiting each query to its window is the design."),
    )
