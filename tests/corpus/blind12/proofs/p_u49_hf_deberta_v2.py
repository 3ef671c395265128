from lib import *

NAME = "u49_hf_deberta_v2"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(solo(1, n=9), solo(2, n=4)),
        label=dict(expected=[], line_sub="hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state",
                   why="The 0/1 mask is passed to DeBERTa-v2 as the library expects; its relative c2p/p2c terms depend only on distances, so right padding changes nothing for real tokens (the library also masks padded query rows). Scores are scaled by 1/sqrt(3 * head_dim), one factor per score term (c2c, c2p, p2c), by DeBERTa's design. Each sentence's tags equal the sentence alone."),
    )
