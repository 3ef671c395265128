from lib import *

NAME = "z01_codec_delay_lm"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("dtype=torch.bool, device=x.device).tril(diagonal=1)", "dtype=torch.bool, device=x.device).tril(diagonal=0)")],
        checks={"causal": (perturb(0, after(0, 6, dim=2), 0, 64), upto(6, dim=2))},
        label=dict(expected=["causal-leak"], line_sub="visible = torch.ones(S, S, dtype=torch.bool",
                   why="tril(diagonal=1) keeps one superdiagonal, so delayed step s also reads step s+1 (the next frame of codebook 0); the logits for step s see the frame they are meant to predict."),
    )
