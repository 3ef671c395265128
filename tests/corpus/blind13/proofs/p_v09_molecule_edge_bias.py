from lib import *

NAME = "v09_molecule_edge_bias"

def result():
    pads = lambda a, k: ~a[3]
    return prove(
        NAME, "buggy", harm="padding",
        fix=[('scores = scores.masked_fill(~atom_mask[:, None, None, :], 0.0)',
              'scores = scores.masked_fill(~atom_mask[:, None, None, :], float("-inf"))')],
        checks={
            "padding": (perturb(0, pads, 1, 12), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 12), samp(0)),
        },
        note="padded atoms get score 0 instead of being removed",
        label=dict(expected=["mask-value"], also_ok_codes=["padding-leak"],
                   line_sub="scores = scores.masked_fill(~atom_mask[:, None, None, :], 0.0)",
                   why="Filling the scores of padded atoms with 0 does not remove them: 0 is an ordinary score next to the real ones, so every real atom gives padded atoms a sizeable weight and reads their values. The predicted property changes with what sits in the padded atom slots."),
    )
