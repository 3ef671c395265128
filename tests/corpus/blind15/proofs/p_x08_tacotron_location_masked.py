from lib import *

NAME = "x08_tacotron_location_masked"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (chain(perturb(0, both(sample(0, 1), lambda a, k: ~pads(a, k)), 1, 40), perturb(2, sample(2, 1))), samp(0)),
            "padding": (perturb(0, pads, 1, 40), whole()),
        },
        ref=refs(solo_cut(1, {0: 8}), solo_cut(2, {0: 5})),
        note="ref = each utterance cut to its length and synthesized alone",
        label=dict(line_sub="alignment = F.softmax(energies, dim=1)",
                   why="The energies (B, T_enc) are filled with -inf beyond each text length and normalized over the encoder axis (dim 1), the axis the bmm contracts; the BiLSTM encoder runs on packed sequences so the padding never reaches real frames; the location features convolve the previous and cumulative alignments, which are zero on the padding."),
    )
