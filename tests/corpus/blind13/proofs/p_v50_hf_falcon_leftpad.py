from lib import *

NAME = "v50_hf_falcon_leftpad"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "causal": (perturb(0, after(0, 6), 3, 64), upto_real(6, 1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=solo(1, n=7, left=True),
        note="ref = the left-padded prompt alone (positions then start at 0 instead of 4)",
        label=dict(line_sub="logits = self.lm(input_ids=input_ids, attention_mask=attention_mask).logits",
                   why="Without position_ids the real tokens of the left-padded prompt get positions 4..10 instead of 0..6, but this Falcon uses rotary embeddings only (alibi=False, no absolute table): every score depends on the position difference, which the uniform shift leaves unchanged. The prompt gives the same log-probs alone as in the batch."),
    )
