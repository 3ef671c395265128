from lib import *

NAME = "x13_table_row_col_attn"

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
        NAME, "buggy", harm="padding",
        fix=[('        scores.masked_fill(key_pad[:, None, None, :], float("-inf"))',
              '        scores = scores.masked_fill(key_pad[:, None, None, :], float("-inf"))')],
        checks={
            "padding": (perturb(0, lambda a, k: ~cellmask(a, k), 1, 50), realcells),
            "batch": (perturb(0, both(sample(0, 1), cellmask), 1, 50), samp(0)),
        },
        ref=refs(alone(1), alone(2)),
        note="ref = each table cut to its real rows and columns and tagged alone",
        label=dict(expected=["mask-value"], also_ok_codes=["padding-leak"],
                   line_sub='        scores.masked_fill(key_pad[:, None, None, :], float("-inf"))',
                   also_subs=[], consequence_codes=[],
                   why="Tensor.masked_fill is not in place and its result is discarded, so the padding mask is never applied: in the row attention every cell attends to the padded columns and in the column attention to the padded rows. The tags of real cells change with the content of the padding cells. It must be assigned (scores = scores.masked_fill(...)) or use masked_fill_."),
    )
