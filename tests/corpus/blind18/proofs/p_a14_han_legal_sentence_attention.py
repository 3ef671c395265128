from lib import *

NAME = "a14_han_legal_sentence_attention"


def result():
    return prove(
        NAME, "buggy", harm="nan",
        fix=[('scores = scores.masked_fill(pad, float("-inf"))',
              "scores = scores.masked_fill(pad, torch.finfo(scores.dtype).min)")],
        checks={"batch": (perturb(0, sample(0, 0), 1, 250), samp(2)),
                "padding": (keep, whole(), pad_row(lambda m: m.emb, 0))},
        ref=solo_cut(0, {}),
        label=dict(expected=["fully-masked-row"], line_sub='scores = scores.masked_fill(pad, float("-inf"))',
                   consequence_codes=["nan"],
                   why="Sentences that are pure padding (document 1 has only 3 of 5) have every word masked with -inf, so their word-attention softmax is NaN; the NaN sentence vectors then poison the document encoder even though those sentences are key-masked there."),
    )
