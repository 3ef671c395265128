from lib import *

NAME = "v32_bf16_autocast_encoder"

def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1), 1, 90), samp(0))},
        ref=refs(solo_cut(1, {0: 8}), solo_cut(2, {0: 3})),
        note="ref = each padded document alone, cut to its real tokens (pad mask comes from the ids)",
        label=dict(line_sub="scores = scores.masked_fill(pad[:, None, None, :], torch.finfo(scores.dtype).min)",
                   why="Under CPU autocast the scores are bfloat16; the fill value is the most negative bfloat16, so padded keys get exactly zero weight without overflow, and no row is fully masked ([CLS] is real). Returning logits.float() is only a cast."),
    )
