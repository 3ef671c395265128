from lib import *

NAME = "u09_seqfirst_transliteration"
src_pads = lambda a, k: get(a, k, 2).t()
col = lambda i: (lambda a, k: (torch.arange(get(a, k, 0).size(1)) == i)[None, :].expand_as(get(a, k, 0)))
real_tgt = lambda o, a, k: o[~get(a, k, 3).t()]


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("y = y + self.cross_attn(h, memory, memory, key_padding_mask=tgt_pad, need_weights=False)[0]",
              "y = y + self.cross_attn(h, memory, memory, key_padding_mask=src_pad, need_weights=False)[0]")],
        checks={
            "padding": (perturb(0, src_pads, 1, 40), real_tgt),
            "batch": (perturb(0, col(1), 1, 40), lambda o, a, k: o[:, 0]),
        },
        note="the cross-attention hides memory positions by the target padding: source 0's padded memory rows are read, source 1's real rows 6-7 are hidden",
        label=dict(expected=["axis-mismatch"], line_sub="y = y + self.cross_attn(h, memory, memory, key_padding_mask=tgt_pad, need_weights=False)[0]",
                   also_ok_codes=["padding-leak"], consequence_codes=["padding-leak"],
                   why="The cross-attention keys are encoder (source) positions but the key padding mask is the target's; the two lengths are both 8 here, so it runs. Source padding is read by every target token (and real source tokens at the target's padded indices are hidden)."),
    )
