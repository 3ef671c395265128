from lib import *

NAME = "x39_protein_contact_head"

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
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 4, 24), pairs),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: (a[1] == 1) & (a[0] > 3)), 4, 24), samp(0)),
        },
        ref=refs(alone(1, 14), alone(2, 9)),
        note="padding = new residues in the padded slots; ref = each protein's residue contact map computed alone",
        label=dict(line_sub="        residue = attention_mask.bool() & (tokens != self.cls_idx) & (tokens != self.eos_idx)",
                   why="Before symmetrization and APC, the attention maps are zeroed on every row and column that is not a residue (padding, <cls>, <eos>), as ESM does, so the APC row, column and total sums run over the protein's own residues only; padded keys are masked with -inf before the softmax. A protein's contact map is the same alone or in a padded batch."),
    )
