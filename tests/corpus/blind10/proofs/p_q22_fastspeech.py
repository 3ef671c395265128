from lib import *

NAME = "q22_fastspeech"


def src_pad(a, k):
    return torch.arange(a[0].shape[1])[None] >= a[1][:, None]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, src_pad, 1, 30), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: ~src_pad(a, k)), 1, 30), samp(0)),
        },
        note="key_padding_mask True=pad for nn.MultiheadAttention in encoder and decoder; length regulator repeats only real phonemes (pad durations 0)",
        label=dict(expected=[], line_sub="a, _ = self.attn(x, x, x, key_padding_mask=pad_mask, need_weights=False)",
                   also_subs=["return ids.unsqueeze(0).expand(lengths.size(0), -1) >= lengths.unsqueeze(1)  # True = padding"],
                   why="Mask from lengths is True at padding, matching key_padding_mask's convention; padded frames are zeroed and the regulator expands real phonemes only."),
    )
