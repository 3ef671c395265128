from lib import *

NAME = "u27_saint_intersample"


def permutation_equivariance(mod):
    """rows may interact, but no row is privileged: permuting the batch permutes the outputs"""
    model, args, kw = build(mod)
    out = run(model, args, kw)
    perm = torch.tensor([2, 0, 1])
    out_p = run(model, tuple(a[perm] for a in args), {})
    return maxdiff(out[perm], out_p)


def result():
    return prove(
        NAME, "correct",
        ref=permutation_equivariance,
        note="batch coupling is the design (intersample attention); the invariant that holds is equivariance to permuting the batch",
        label=dict(expected=[], also_ok_codes=["batch-leak"], line_sub="rows = x.reshape(1, b, n * d)            # the batch becomes the sequence",
                   why="Intersample attention attends across the rows of the batch by design (SAINT); a batch-independence test is not the contract here. What holds is permutation equivariance over the batch, deterministic eval, and finite outputs (a batch-leak report would be true as an observation but names designed behaviour); the column attention and the per-row reshape keep rows whole (batch outermost, n*d contiguous)."),
    )
