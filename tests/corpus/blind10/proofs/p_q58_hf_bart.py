from lib import *

NAME = "q58_hf_bart"


def lab_real(a, k):
    return a[2] != -100


def result():
    T = 3
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), lambda o, a, k: o[lab_real(a, k)]),
            "causal": (perturb(2, both(after(2, T - 1), lab_real), 3, 64), upto(T)),
            "batch": (perturb(0, both(sample(0, 1), where_eq(1, 1)), 3, 64), samp(0)),
        },
        note="encoder padding via attention_mask; decoder inputs shifted right, so logits at t depend on labels < t only (labels >= T changed, logits <= T unchanged)",
        label=dict(expected=[], line_sub="dec_in = shift_tokens_right(labels, self.config.pad_token_id, self.config.decoder_start_token_id)",
                   also_subs=["dec_mask = (dec_in != self.config.pad_token_id).long()"],
                   why="Source padding goes through attention_mask (1 = keep) to encoder and cross-attention; decoder inputs are the labels shifted right with -100 mapped to pad, and BART's decoder is causal."),
    )
