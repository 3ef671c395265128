from lib import *

NAME = "f25_emg_keystroke_streaming"


def cln_ref(m, x):
    """cLN written frame by frame: frame t is normalized with mean/var over all channels and electrodes of frames 0..t"""
    out = torch.empty_like(x)
    for t in range(x.size(2)):
        seen = x[:, :, : t + 1]
        mu = seen.mean(dim=(1, 2, 3), keepdim=True)
        var = ((seen - mu) ** 2).mean(dim=(1, 2, 3), keepdim=True)
        out[:, :, t:t + 1] = (x[:, :, t:t + 1] - mu) / torch.sqrt(var + m.eps)
    return out * m.gamma + m.beta


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7)), upto(7)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=module_ref(lambda m: m.norm, cln_ref),
        note="ref = cLN vs a frame-by-frame cumulative layer norm",
        label=dict(line_sub="mean = x.sum(dim=(1, 3)).cumsum(dim=1) / count",
                   why="Cumulative layer norm deliberately takes its statistics over channels, electrodes and all frames up to t (never later frames), the causal normalization of streaming models; frames and electrodes have the same size (16) but every reshape keeps them apart and only the frame axis gets the causal mask."),
    )
