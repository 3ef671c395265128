from lib import *

NAME = "v10_hw_poem_decoder"

def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("scores.masked_fill_(future == 0, -1e9)", "scores.masked_fill_(future == 1, -1e9)")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 30), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 30), samp(0)),
        },
        note="triu(diagonal=1) marks the future; filling where it is 0 hides the past and the diagonal and shows the future",
        label=dict(expected=["causal-leak"], also_ok_codes=["mask-polarity", "causal-diagonal"],
                   consequence_codes=["fully-masked-row"], line_sub="scores.masked_fill_(future == 0, -1e9)",
                   also_subs=["future = torch.triu(torch.ones(T, T, device=x.device), diagonal=1)"],
                   why="`future` is 1 strictly above the diagonal. Filling where it is 0 masks the current and earlier characters and leaves the later ones visible: each character attends only to the future, and the last row is fully masked (uniform weights). It should fill where future == 1."),
    )
