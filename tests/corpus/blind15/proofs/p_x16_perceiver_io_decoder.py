from lib import *

NAME = "x16_perceiver_io_decoder"

pads = lambda a, k: ~a[1]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads), whole()),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1))), samp(0)),
        },
        ref=refs(solo_cut(1, {0: 11, 1: 11}), solo_cut(2, {0: 5, 1: 5})),
        note="ref = each example cut to its real inputs and decoded alone",
        label=dict(line_sub="z = self.encode(self.latents.expand(B, -1, -1), inputs, key_padding_mask=~input_mask)",
                   why="input_mask is True on real inputs and nn.MultiheadAttention's key_padding_mask wants True = ignore, hence the negation. The latents (a learned array expanded over the batch, not mixed across it) never contain padding, so the latent self-attention and the output-query decoder need no mask; the output queries attend over the latents (softmax over the latent axis inside MHA)."),
    )
