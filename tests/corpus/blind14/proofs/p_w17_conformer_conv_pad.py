from lib import *

NAME = "w17_conformer_conv_pad"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("h = self.depthwise(h)", "h = self.depthwise(h.masked_fill(~valid[:, None, :], 0.0))")],
        checks={
            "padding": (perturb(0, pads), lambda o, a, k: o[~pads(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(solo(1, n=13), solo(2, n=8)),
        note="ref = each utterance cut to its frames and run alone",
        label=dict(expected=["padding-leak"], also_ok_codes=[], line_sub="h = self.depthwise(h)",
                   also_subs=[], consequence_codes=[],
                   why="Attention hides the padded frames, but the depthwise convolution of the conformer's convolution module slides its kernel across the end of each utterance and reads the padded frames' activations into the last real frames. Padded frames must be zeroed before the depthwise conv (as ESPnet/NeMo do with the length mask)."),
    )
