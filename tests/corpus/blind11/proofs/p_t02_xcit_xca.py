from lib import *

NAME = "t02_xcit_xca"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=solo(2, pooled=True),
        note="XCA: softmax over channels of the d_h x d_h cross-covariance table is the design",
        label=dict(expected=[], line_sub="attn = attn.softmax(dim=-1)",
                   why="Cross-covariance attention builds a channel x channel table (q, k transposed to (B,h,d_h,N), L2-normalized over tokens) and normalizes over channels by design; BatchNorm in eval uses running stats, so samples stay independent."),
    )
