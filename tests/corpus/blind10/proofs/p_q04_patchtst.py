from lib import *

NAME = "q04_patchtst"


def chan(c):
    return lambda a, k: (torch.arange(get(a, k, 0).shape[-1]) == c).view(1, 1, -1).expand_as(get(a, k, 0))


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
            "channel": (perturb(0, chan(1)), lambda o, a, k: o[..., [0, 2]]),
        },
        note="channel-independent PatchTST; RevIN normalizes over time per series (intended); BatchNorm in eval",
        label=dict(expected=[], line_sub="u = self.W_P(z).reshape(bs * nv, n, -1) + self.W_pos",
                   also_subs=["self.mean = x.mean(dim=1, keepdim=True).detach()"],
                   why="Patches per channel, positional table (n_patches, d) added along the patch axis; RevIN stats over time are instance normalization, not a layer norm; channels stay independent (measured)."),
    )
