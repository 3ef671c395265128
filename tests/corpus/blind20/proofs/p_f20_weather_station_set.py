from lib import *

NAME = "f20_weather_station_set"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("allowed = near & observed.bool()[:, None, :]",
              "allowed = near & (observed.bool()[:, None, :] | torch.eye(xy.size(1), dtype=torch.bool, device=xy.device))")],
        checks={
            # what a missing station's value slot holds must not matter
            "missing": (perturb(0, where_eq(1, 0)), whole()),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1))), samp(0)),
        },
        label=dict(expected=["fully-masked-row"], line_sub="allowed = near & observed.bool()[:, None, :]",
                   also_subs=[], also_ok_codes=[], consequence_codes=["nan"],
                   why="A station may only read stations that reported, and a missing station does not even keep its own token, so a missing station with no reporting neighbour within the radius has every key blocked. Its softmax row is all -inf and becomes NaN, and in the next layer the NaN value reaches every station of that sample (a zero weight times NaN is NaN)."),
    )
