from lib import *

NAME = "x07_tacotron_location_attn"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("alignment = F.softmax(energies, dim=0)", "alignment = F.softmax(energies, dim=1)")],
        checks={
            "batch": (chain(perturb(0, both(sample(0, 1), lambda a, k: ~pads(a, k)), 1, 40), perturb(2, sample(2, 1))), samp(0)),
            "padding": (perturb(0, pads, 1, 40), whole()),
        },
        ref=refs(solo_cut(1, {0: 8}), solo_cut(2, {0: 5})),
        note="batch = changing utterance 1's text and mels moves utterance 0's mel frames; ref = each utterance cut to its length and synthesized alone",
        label=dict(expected=["softmax-axis"], also_ok_codes=["batch-leak"], line_sub="alignment = F.softmax(energies, dim=0)",
                   also_subs=[], consequence_codes=[],
                   why="energies is (B, T_enc) and the bmm sums the alignment against the encoder frames (dim 1). The softmax over dim=0 normalizes each encoder position across the utterances of the batch, so an utterance's alignment depends on the other utterances' energies and does not sum to 1 over its own text: the predicted mel frames change when another utterance in the batch changes."),
    )
