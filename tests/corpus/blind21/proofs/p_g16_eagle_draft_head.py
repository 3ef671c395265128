from lib import *

NAME = "g16_eagle_draft_head"
FIX = [("prev = F.pad(h.reshape(B * T, D)[:-1], (0, 0, 1, 0))", "prev = F.pad(h[:, :-1], (0, 0, 1, 0))")]


def result():
    return prove(
        NAME, "buggy", harm="batch", fix=FIX,
        checks={
            "batch": (perturb(1, sample(1, 0)), samp(1)),
            "batch2": (chain(perturb(0, sample(0, 1), 0, 96), perturb(1, sample(1, 1))), samp(2)),
            "causal": (chain(perturb(0, both(sample(0, 2), after(0, 6)), 0, 96), perturb(1, both(sample(1, 2), after(1, 6)))),
                       lambda o, a, k: o[2, :7]),
        },
        label=dict(expected=["batch-leak"], line_sub="prev = F.pad(h.reshape(B * T, D)[:-1], (0, 0, 1, 0))",
                   also_subs=[], also_ok_codes=[], consequence_codes=[],
                   why="The target features are shifted by one step on the flattened (B*T, D) stream, so position 0 of every sample receives the last target feature of the previous sample instead of zeros. A sample's draft logits then change when only another sample's hidden states change; the shift must be taken along the time axis of the (B, T, D) tensor."),
    )
