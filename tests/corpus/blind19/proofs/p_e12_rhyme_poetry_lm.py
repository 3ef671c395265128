from lib import *

NAME = "e12_rhyme_poetry_lm"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 10), 0, 64), upto(10)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 64), perturb(1, sample(1, 1), 0, 8)), samp(0)),
        },
        label=dict(line_sub="fut = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)",
                   why="The rhyme-class and distance-to-line-end features are known from the scheme before generation, so adding them at every position is legitimate; the character attention is strictly causal with the diagonal kept."),
    )
