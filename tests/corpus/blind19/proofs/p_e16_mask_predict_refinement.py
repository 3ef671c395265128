from lib import *

NAME = "e16_mask_predict_refinement"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (keep, whole(), pad_row(lambda m: m.embed, 0)),
            "batch": (perturb(0, sample(0, 1), 4, 90), samp(0)),
        },
        ref=refs(solo_cut(1, {0: 9}), solo_cut(2, {1: 5}, out_cut=5)),
        note="ref: sentences run alone without their source / target padding",
        label=dict(line_sub="h = self.decoder(x, memory, tgt_key_padding_mask=tgt_pad, memory_key_padding_mask=src_pad)",
                   why="The CMLM decoder is bidirectional by design (no causal mask); target and source padding are excluded via key padding masks and pad positions are never re-masked, so a sentence's predictions do not depend on padding or on other sentences."),
    )
