from lib import *

NAME = "q24_trocr"


def result():
    real_tok = lambda a, k: a[1] != 1
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, both(after(1, 4), real_tok), 3, 40), upto(4)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, both(sample(1, 1), real_tok), 3, 40)), samp(0)),
            "padding": (perturb(1, lambda a, k: a[1] == 1, 3, 40), lambda o, a, k: o[a[1] != 1]),
        },
        note="nn.TransformerDecoder with generate_square_subsequent_mask and tgt_key_padding_mask (True = pad); right padding, so causal masking alone already hides pads from real tokens",
        label=dict(expected=[], line_sub="h = self.dec(x, memory, tgt_mask=causal, tgt_is_causal=True, tgt_key_padding_mask=pad)",
                   why="Square subsequent (-inf above diagonal) mask plus key padding mask with True = pad, matching nn.Transformer conventions; encoder patches need no mask."),
    )
