from lib import *

NAME = "f06_seqrec_time_intervals"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("unit = gaps.masked_fill(gaps == 0, float(\"inf\")).amin()",
              "unit = gaps.masked_fill(gaps == 0, float(\"inf\")).amin(dim=(1, 2), keepdim=True)")],
        checks={
            "batch": (perturb(1, sample(1, 1), 1_600_000, 1_600_100), samp(0)),
            "pad_times": (perturb(1, where_eq(0, 0), 0, 10_000), lambda o, a, k: o[get(a, k, 0) > 0]),
        },
        ref=solo_cut(1, {}),
        note="ref = user 1 scored alone vs in the batch",
        label=dict(expected=["batch-leak"], line_sub="unit = gaps.masked_fill(gaps == 0, float(\"inf\")).amin()",
                   also_subs=[], also_ok_codes=[], consequence_codes=[],
                   why="TiSASRec scales each user's time gaps by that user's own smallest gap, but amin() without dims takes the smallest gap of the whole batch. Every user's interval buckets, and so its recommendations, change with the timestamps of the other users in the batch."),
    )
