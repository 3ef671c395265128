from lib import *

NAME = "q34_nystrom"




def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("out = out.reshape(B, N, D)", "out = out.transpose(1, 2).reshape(B, N, D)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="heads merged with reshape(B, N, D) on [B, H, N, dh]: merged token n holds features of tokens 4n..4n+3 of one head",
        label=dict(expected=["head-merge"], line_sub="out = out.reshape(B, N, D)",
                   why="The Nystrom output is [B, H, N, dh]; reshaping it straight to [B, N, D] without transposing heads back makes each output token a concatenation of several tokens of a single head."),
    )
