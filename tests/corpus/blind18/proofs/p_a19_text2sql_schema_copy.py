from lib import *

NAME = "a19_text2sql_schema_copy"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 40), upto(5)),
            "padding": (chain(perturb(1, where_eq(3, 0)), perturb(2, where_eq(4, 0))), whole()),
            "batch": (perturb(2, sample(2, 1)), samp(0)),
        },
        ref=lambda mod: (lambda o: (o.sum(-1) - 1).abs().max().item())(run(*build(mod))),
        note="ref = max deviation of each step's [keywords ; schema] distribution from summing to one",
        label=dict(line_sub="copy_scores = copy_scores.masked_fill(schema_mask[:, None, :] == 0, float(\"-inf\"))",
                   why="The decoder is causal (generate_square_subsequent_mask), question padding is excluded through memory_key_padding_mask, and the copy distribution masks padded schema items along the item axis; the switch mixes two distributions, so each output row sums to one."),
    )
