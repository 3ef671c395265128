from lib import *

NAME = "y19_molecule_distance_bias"


def result():
    pad = lambda a, k: ~a[2]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("logits = logits.masked_fill(~atom_mask[:, None, :, None], -1e9)",
              "logits = logits.masked_fill(~atom_mask[:, None, None, :], -1e9)")],
        checks={"padding": (chain(perturb(0, pad, 1, 20), perturb(1, pad)), whole()),
                "batch": (chain(perturb(0, both(sample(0, 0), lambda a, k: a[2]), 1, 20), perturb(1, sample(1, 0))), samp(1))},
        label=dict(expected=["mask-axis"], line_sub="logits = logits.masked_fill(~atom_mask[:, None, :, None], -1e9)",
                   consequence_codes=["padding-leak"],
                   why="The atom mask is broadcast along the query axis instead of the key axis: padded atoms' rows are blanked while every real atom still attends to the padded atoms, so the predicted property depends on the padding atoms' types and coordinates."),
    )
