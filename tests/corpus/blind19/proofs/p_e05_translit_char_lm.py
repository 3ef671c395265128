from lib import *

NAME = "e05_translit_char_lm"


def result():
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("diagonal=2)", "diagonal=1)")],
        checks={"causal": (perturb(0, after(0, 7), 0, 96), upto(7))},
        label=dict(expected=["causal-leak"], line_sub="diagonal=2)",
                   why="triu(diagonal=2) leaves the first superdiagonal unmasked, so every position also attends to the next character it is trained to predict."),
    )
