from lib import *

NAME = "x14_table_axial_rows_cols"

cellmask = lambda a, k: a[1][:, :, None] & a[2][:, None, :]
realcells = lambda o, a, k: o[cellmask(a, k)]


def alone(i):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        cells, rm, cm = args
        r, c = int(rm[i].sum()), int(cm[i].sum())
        one = run(model, (cells[i:i + 1, :r, :c], rm[i:i + 1, :r], cm[i:i + 1, :c]), {})
        return maxdiff(full[i:i + 1, :r, :c], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: ~cellmask(a, k), 1, 50), realcells),
            "batch": (perturb(0, both(sample(0, 1), cellmask), 1, 50), samp(0)),
        },
        ref=refs(alone(1), alone(2)),
        note="ref = each table cut to its real rows and columns and tagged alone",
        label=dict(line_sub='        scores = scores.masked_fill(key_pad[:, None, None, :], float("-inf"))',
                   why="Row attention folds rows into the batch and masks padded columns as keys; column attention folds columns into the batch and masks padded rows as keys (key_pad is (N, L) broadcast to (N, 1, 1, L)). Each fold is undone with the matching view/transpose; a padded row or column still has real keys in the other direction, so no row of scores is empty."),
    )
