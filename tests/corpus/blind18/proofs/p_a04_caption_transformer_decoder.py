from lib import *

NAME = "a04_caption_transformer_decoder"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("dtype=torch.bool, device=device), diagonal=2)", "dtype=torch.bool, device=device), diagonal=1)")],
        checks={"causal": (perturb(1, after(1, 6), 0, 160), upto(6))},
        label=dict(expected=["causal-leak"], line_sub="diagonal=2)",
                   why="triu(..., diagonal=2) leaves the first superdiagonal unmasked, so caption position t sees token t+1 during teacher forcing."),
    )
