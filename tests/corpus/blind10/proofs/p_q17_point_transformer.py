from lib import *

NAME = "q17_point_transformer"


def far_point(a, k):
    # moving the last point of sample 0 far away: it leaves everyone's kNN set except its own row,
    # so the other points' outputs must not change
    return a


def result():
    fix = [("attn = F.softmax(attn / (k.size(-1) ** 0.5), dim=1)  # b x n x k x f",
            "attn = F.softmax(attn / (k.size(-1) ** 0.5), dim=2)  # b x n x k x f")]

    def iso(o, a, k):
        return o[0, :9]

    def pert(a, k):
        x = a[0].clone(); x[0, 9] = 100.0
        return (x,), k

    return prove(
        NAME, "buggy", harm="axis",
        fix=fix,
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="softmax over dim=1 (the point axis) instead of dim=2 (neighbours)",
        label=dict(expected=["softmax-axis"], line_sub="attn = F.softmax(attn / (k.size(-1) ** 0.5), dim=1)  # b x n x k x f",
                   why="The vector-attention weights are [b, n, k, f]; normalizing over dim=1 mixes all points instead of normalizing each point's k neighbours, so a point's output depends on far-away points."),
    )
