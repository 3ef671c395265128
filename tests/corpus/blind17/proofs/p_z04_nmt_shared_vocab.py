from lib import *

NAME = "z04_nmt_shared_vocab"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 4), 4, 96), upto(4)),
            "padding": (keep, whole(), pad_row(lambda m: m.shared, 1)),
            "batch": (perturb(1, sample(1, 1), 4, 96), samp(0)),
        },
        pick=lambda o: torch.cat([o[..., :1], o[..., 2:]], -1),  # the pad id's own logit moves with its tied row
        ref=solo_cut(2, {0: 5}),
        label=dict(line_sub="memory_key_padding_mask=src_pad)",
                   why="nn.Transformer expects True = ignore for key padding masks, which is what src.eq(pad) gives; the tied output projection and sqrt(d) embedding scale are the standard shared-vocabulary setup, and dropout is inactive in eval."),
    )
