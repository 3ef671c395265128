from lib import *

NAME = "v24_hf_whisper_leftpad"

def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("decoder_attention_mask=decoder_attention_mask)",
              "decoder_attention_mask=decoder_attention_mask,\n                         decoder_position_ids=(decoder_attention_mask.cumsum(-1) - 1).clamp(min=0))")],
        checks={
            "padding": (perturb(1, where_eq(2, 0), 3, 64), real(2)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 3, 64)), samp(0)),
        },
        ref=solo(1, n=6, left=True),
        note="ref = the left-padded prompt decoded alone gives different states than in the batch",
        label=dict(expected=["positional-axis"], also_ok_codes=["padding-leak"],
                   line_sub="decoder_attention_mask=decoder_attention_mask)",
                   also_subs=["out = self.model(input_features=input_features, decoder_input_ids=decoder_input_ids,"],
                   why="Whisper's decoder adds learned absolute position embeddings and, without decoder_position_ids, numbers the columns 0..T-1. With left padding the real prompt tokens of a shorter prompt start at column 4 and get positions 4.., so its states depend on how much padding the batch needed; position ids counted from the mask fix it."),
    )
