from lib import *

NAME = "e23_program_repair_diff_attention"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[("e = torch.exp(scores)", "e = torch.exp(scores - scores.amax(-1, keepdim=True))")],
        label=dict(expected=["unstable-softmax"], line_sub="e = torch.exp(scores)",
                   also_ok_codes=["nan"], consequence_codes=["nan"],
                   why="The hand-written softmax exponentiates raw scores; with the +100 hunk bias some scores pass exp's float32 range (about 88), exp gives inf and inf/inf turns the attention rows into NaN."),
    )
