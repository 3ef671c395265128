from lib import *

NAME = "v51_hf_modernbert_padded"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=refs(solo(1, n=8), solo(2, n=5)),
        note="ref = each right-padded sentence alone",
        label=dict(line_sub="h = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state",
                   why="The library's attention mask (1 = real) removes padding from the global layers and from the sliding-window layers; the local window limits what a token sees by design."),
    )
