from lib import *

NAME = "u20_mamba_conv"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("x = self.conv1d(x)[..., -L:]", "x = self.conv1d(x)[..., :L]")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 48), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 48), samp(0)),
        },
        note="with padding k-1 on both sides the conv output has L+k-1 steps; output j covers inputs j-k+1..j, so the last L steps see up to k-1 future tokens",
        label=dict(expected=["causal-leak"], line_sub="x = self.conv1d(x)[..., -L:]",
                   also_subs=["self.conv1d = nn.Conv1d(d_inner, d_inner, d_conv, groups=d_inner, padding=d_conv - 1)"],
                   why="nn.Conv1d pads k-1 on both sides; the causal output is the first L steps. Keeping the last L shifts the window forward by k-1 = 3, so every position mixes the next three tokens into the SSM input."),
    )
