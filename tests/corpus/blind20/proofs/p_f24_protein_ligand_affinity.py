from lib import *

NAME = "f24_protein_ligand_affinity"


def result():
    pad_res, pad_atoms = where_eq(2, 0), where_eq(0, 0)
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("scores.masked_fill(~pocket_mask[:, None, None, :], float(\"-inf\"))",
              "scores = scores.masked_fill(~pocket_mask[:, None, None, :], float(\"-inf\"))")],
        checks={
            "padding": (chain(perturb(3, pad_res), perturb(4, pad_res)), whole()),
            "atom_padding": (perturb(1, pad_atoms), whole()),
            "batch": (chain(perturb(1, sample(1, 1)), perturb(3, sample(3, 1)), perturb(4, sample(4, 1))), samp(0)),
        },
        ref=solo_cut(1, {2: 12, 3: 12, 4: 12}),
        note="ref = complex 1 scored alone with its pocket cut to its 12 real residues",
        label=dict(expected=["mask-value"], line_sub="scores.masked_fill(~pocket_mask[:, None, None, :], float(\"-inf\"))",
                   also_subs=[], also_ok_codes=[], consequence_codes=["padding-leak"],
                   why="masked_fill is not in place and its result is thrown away, so the padded pocket residues keep their logits. Ligand atoms attend to padding residues (with their distance bias), and the predicted affinity depends on how the pocket was padded."),
    )
