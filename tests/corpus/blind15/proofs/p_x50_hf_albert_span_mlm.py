from lib import *

NAME = "x50_hf_albert_span_mlm"

real = lambda o, a, k: o[a[1] == 1]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 5, 90), real),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: (a[1] == 1) & ~a[2]), 5, 90), samp(0)),
        },
        ref=refs(solo(1, n=11), solo(2, n=7)),
        note="ref = each sentence cut to its tokens (with its spans) and run alone",
        label=dict(line_sub="corrupted = input_ids.masked_fill(spans, MASK)",
                   why="Spans are drawn among real tokens only (never [CLS], [SEP] or padding) and replaced by [MASK] in the input ids, which is the intended corruption, not an attention mask; the attention_mask is the library's 1 = real convention, and ALBERT's shared layers mask the padded keys. Each sentence alone gives the same scores at its real positions."),
    )
