from lib import *

NAME = "x35_tabpfn_train_test"


def one_test_row(j):
    """test row j predicted with only the training rows as context (N = 11) equals its prediction in the full table"""
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        X, y, pos = args
        Xj = torch.cat([X[:, :pos], X[:, pos + j: pos + j + 1]], dim=1)
        one = run(model, (Xj, y, pos), {})
        return maxdiff(full[:, j:j + 1], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
            "test_rows": (perturb(0, lambda a, k: (torch.arange(14) >= 11)[None, :].expand(2, 14)), lambda o, a, k: o[:, 0]),
        },
        ref=refs(one_test_row(0), one_test_row(3)),
        note="test_rows = changing test rows 1..3 leaves test row 0's prediction unchanged; ref = each test row classified with the training rows only",
        label=dict(line_sub="        allowed = is_train[None, :].expand(N, N)",
                   why="Rows attend across the items of one dataset by design: every row (training or test) reads the training rows, which carry their labels, and no row reads a test row, so test predictions are independent of each other and of how many test rows are batched. Datasets (the batch axis) never interact."),
    )
