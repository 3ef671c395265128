from lib import *

NAME = "q25_trocr_decoder"


def result():
    real_tok = lambda a, k: a[1] == 1
    return prove(
        NAME, "buggy", harm="causal",
        fix=[("return self.out_proj(ctx_vec.reshape(B, T, D))",
              "return self.out_proj(ctx_vec.transpose(1, 2).reshape(B, T, D))")],
        checks={
            "causal": (perturb(0, both(after(0, 3), real_tok), 3, 40), upto_real(3, 1)),
            "padding": (perturb(0, where_eq(1, 0), 3, 40), real(1)),
            "batch": (chain(perturb(0, both(sample(0, 1), real_tok), 3, 40), perturb(2, sample(2, 1))), samp(0)),
        },
        note="heads merged with reshape(B, T, D) on [B, H, T, dh]: output row t is built from rows of several positions, so early positions see later ones",
        label=dict(expected=["head-merge"], line_sub="return self.out_proj(ctx_vec.reshape(B, T, D))",
                   also_subs=["ctx_vec = scores.softmax(-1) @ v  # B, H, T, dh"],
                   consequence_codes=["causal-leak", "padding-leak"],
                   why="The per-head context [B, H, T, dh] is reshaped to [B, T, D] without moving the head axis back, so each merged row mixes several time steps (and heads), leaking future and padded tokens into earlier positions."),
    )
