from lib import *

NAME = "y37_grammar_constrained_decoder"


def result():
    return prove(
        NAME, "correct",
        checks={"causal": (perturb(0, after(0, 7), 0, 10), upto(7)),
                "causal0": (perturb(0, after(0, 0), 0, 10), upto(0)),
                "batch": (perturb(0, sample(0, 0), 0, 10), samp(1))},
        label=dict(line_sub="logits = logits.masked_fill(~allowed, float(\"-inf\"))",
                   why="The -inf fill is on the output vocabulary logits (a grammar constraint), not on attention scores; each row's allowed set depends only on the prefix up to that position, always contains at least one token, and the log-softmax is clamped so excluded tokens stay finite."),
    )
