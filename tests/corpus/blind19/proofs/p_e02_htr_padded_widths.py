from lib import *

NAME = "e02_htr_padded_widths"


def pad_cols(a, k):
    img, widths = a
    W = img.size(-1)
    m = torch.arange(W)[None, :] >= widths[:, None]  # (B, W)
    return m[:, None, None, :]


def real_cols(o, a, k):
    widths = a[1]
    m = torch.arange(o.size(1))[None, :] < widths[:, None]
    return o[m]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pad_cols), real_cols),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        label=dict(line_sub="return torch.arange(W, device=widths.device)[None, :] >= widths[:, None]",
                   why="Columns at or past each line's width are marked True = padding for key_padding_mask; the frontend uses width-1 kernels along the line so padded columns cannot reach real ones."),
    )
