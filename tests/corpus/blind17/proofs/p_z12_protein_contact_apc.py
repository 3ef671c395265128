from lib import *

NAME = "z12_protein_contact_apc"


def real_pairs(o, a, k):
    r = a[0] != 1
    return o[r[:, :, None] & r[:, None, :]]


def block_ref(mod):
    model, args, kw = build(mod)
    full = run(model, args, kw)
    one = run(model, (args[0][2:3, :6],), kw)
    return maxdiff(full[2:3, :6, :6], one)


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (keep, real_pairs, pad_row(lambda m: m.embed, 1)),
            "batch": (perturb(0, sample(0, 0), 4, 25), samp(1)),
        },
        ref=block_ref,
        note="ref compares the 6x6 contact map of protein 2 alone with its block of the padded batch",
        label=dict(line_sub="corrected = x - a1 * a2 / a12.clamp(min=1e-8)",
                   why="APC deliberately uses row, column and whole-map sums of each attention map; the maps are zeroed outside real-real pairs first, so the statistics cover only the protein's own residues and the padded tail cannot shift them."),
    )
