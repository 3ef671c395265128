from lib import *

NAME = "w01_conformer_ctc_kpm"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("mask = torch.arange(T, device=feats.device)[None, :] < feat_lens[:, None]",
              "mask = torch.arange(T, device=feats.device)[None, :] >= feat_lens[:, None]")],
        checks={
            "padding": (perturb(0, pads), lambda o, a, k: o[~pads(a, k)]),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(solo(1, n=9), solo(2, n=6)),
        note="ref = each utterance cut to its length and run alone",
        label=dict(expected=["mask-polarity"], also_ok_codes=["padding-leak"],
                   line_sub="mask = torch.arange(T, device=feats.device)[None, :] < feat_lens[:, None]",
                   also_subs=["key_padding_mask=mask"], consequence_codes=[],
                   why="nn.MultiheadAttention's boolean key_padding_mask means True = ignore this key. The encoder builds the mask as frame < length, i.e. True on the real frames, so every real frame attends only to the zero padding of its bucket and the real frames are hidden. Outputs at real frames change with the padded features; the mask must be frame >= length."),
    )
