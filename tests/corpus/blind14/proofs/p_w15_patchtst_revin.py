from lib import *

NAME = "w15_patchtst_revin"


def chan(c):
    return lambda a, k: torch.arange(a[0].size(2))[None, None, :].expand(a[0].shape) == c


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
            "channel": (perturb(0, chan(1)), lambda o, a, k: o[..., [0, 2]]),
        },
        ref=solo(2),
        note="channel = changing variable 1 leaves the forecasts of variables 0 and 2 unchanged (channel independence); ref = series 2 alone",
        label=dict(line_sub="self.loc = x.mean(dim=1, keepdim=True)",
                   why="Statistics are taken over the time axis (dim 1) per series and per variable, and are undone after the head. Folding variables into the batch axis ((b c) n p) is PatchTST's channel independence: neither other series nor other variables influence a forecast."),
    )
