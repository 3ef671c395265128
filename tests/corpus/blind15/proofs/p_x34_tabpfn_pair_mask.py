from lib import *

NAME = "x34_tabpfn_pair_mask"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("        allowed = is_train[:, None] & is_train[None, :]", "        allowed = is_train[None, :].expand(N, N)")],
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
            "test_rows": (perturb(0, lambda a, k: (torch.arange(14) >= 11)[None, :].expand(2, 14)), lambda o, a, k: o[:, 0]),
        },
        note="the buggy test predictions are NaN; fixed, the first test row's prediction ignores the other test rows",
        label=dict(expected=["fully-masked-row"], also_ok_codes=["nan"],
                   line_sub="        allowed = is_train[:, None] & is_train[None, :]", also_subs=[], consequence_codes=[],
                   why="The mask is meant to say 'keys must be training rows'. Written as is_train[:, None] & is_train[None, :], it also requires the query to be a training row, so every test row (a real query, the rows the model exists to classify) has all its keys masked: the softmax over a row of -inf is NaN and every test prediction is NaN. It must be is_train[None, :] broadcast over the queries."),
    )
