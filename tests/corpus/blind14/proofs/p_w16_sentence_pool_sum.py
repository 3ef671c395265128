from lib import *

NAME = "w16_sentence_pool_sum"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("sentence_embedding = hidden.sum(dim=1)", "sentence_embedding = (hidden * mask).sum(dim=1)")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 200), whole()),
            "batch": (perturb(0, sample(0, 1), 3, 200), samp(0)),
        },
        ref=refs(solo(1, n=9, pooled=True), solo(2, n=5, pooled=True)),
        note="ref = each sentence cut to its tokens and encoded alone",
        label=dict(expected=["padding-leak"], also_ok_codes=[],
                   line_sub="sentence_embedding = hidden.sum(dim=1) / mask.sum(dim=1).clamp(min=1e-9)",
                   also_subs=[], consequence_codes=[],
                   why="Mean pooling divides by the number of real tokens but sums the hidden states of every position, the padded ones included (their hidden states are computed from the pad tokens' own embeddings). The sentence embedding changes with what sits in the padding; the sum must be taken over hidden * mask."),
    )
