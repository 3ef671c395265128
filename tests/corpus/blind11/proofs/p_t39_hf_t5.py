from lib import *

NAME = "t39_hf_t5"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 64), real(3)),
            "target_padding": (perturb(2, where_eq(3, 0), 2, 64), real(3)),
            "causal": (perturb(2, after(2, 2), 2, 64), lambda o, a, k: o[:, :3]),
            "batch": (chain(perturb(0, sample(0, 1), 2, 64), perturb(2, sample(2, 1), 2, 64)), samp(0)),
        },
        note="encoder key padding, causal decoder, cross-attention masked by the source mask",
        label=dict(expected=[], line_sub="decoder_input_ids=decoder_input_ids, decoder_attention_mask=decoder_attention_mask)",
                   why="HF T5 with both masks given: pad keys are hidden in encoder self-attention and cross-attention, the decoder is causal; decoder pad rows at the end never affect real target positions."),
    )
