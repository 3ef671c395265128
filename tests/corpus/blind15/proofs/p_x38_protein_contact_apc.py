from lib import *

NAME = "x38_protein_contact_apc"

pads = lambda a, k: a[1] == 0


def pairs(o, a, k):
    tok, m = a
    res = (m == 1) & (tok != 0) & (tok != 2)
    return o[res[:, :, None] & res[:, None, :]]


def alone(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        one = run(model, (args[0][i:i + 1, :n], args[1][i:i + 1, :n]), {})
        return maxdiff(full[i:i + 1, 1:n - 1, 1:n - 1], one[:, 1:n - 1, 1:n - 1])
    return ref


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("        residue = (tokens != self.cls_idx) & (tokens != self.eos_idx)",
              "        residue = attention_mask.bool() & (tokens != self.cls_idx) & (tokens != self.eos_idx)")],
        checks={
            "padding": (perturb(0, pads, 4, 24), pairs),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: (a[1] == 1) & (a[0] > 3)), 4, 24), samp(0)),
        },
        ref=refs(alone(1, 14), alone(2, 9)),
        note="padding = new residues in the padded slots move the contacts between real residues; ref = each protein alone",
        label=dict(expected=["padding-leak"], also_ok_codes=[],
                   line_sub="        residue = (tokens != self.cls_idx) & (tokens != self.eos_idx)", also_subs=[], consequence_codes=[],
                   why="The attention maps are cleaned of <cls> and <eos> but not of the padding. The padded positions' rows are real softmax rows (their queries read the real residues), so after symmetrization they add to the APC row, column and total sums: a1 * a2 / a12 for real residue pairs now depends on the padded slots' content and on how much padding the batch added. Contact probabilities between real residues change with the padding."),
    )
