from lib import *

NAME = "e21_xlm_transliteration_tagger"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 5, 140), whole()),
            "batch": (perturb(0, sample(0, 1), 5, 140), samp(0)),
        },
        ref=solo(2, n=4, pooled=True, pick=lambda o: o[:, -1]),
        note="ref: sentence 2 alone without padding, sentence-level logits",
        label=dict(line_sub="sent = (h * m).sum(1) / m.sum(1).clamp(min=1.0)",
                   why="The attention mask (1 = keep) is passed with the library's convention, the sentence vector is a masked mean, and padded token logits are zeroed, so padding content cannot reach any output."),
    )
