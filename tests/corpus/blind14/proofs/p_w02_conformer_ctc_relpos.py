from lib import *

NAME = "w02_conformer_ctc_relpos"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads), lambda o, a, k: o[~pads(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(solo(1, n=11), solo(2, n=7)),
        note="ref = each utterance cut to its length and run alone",
        label=dict(line_sub="h = h.masked_fill(pad_mask[:, None, :], 0.0)",
                   why="pad_mask is True on padded frames and fills the key columns with -inf before the softmax; the relative bias is indexed by k - q; the padded frames are zeroed before the depthwise convolution so its kernel never reads padding into real frames (BatchNorm in eval uses running statistics). Each utterance alone gives the same outputs."),
    )
