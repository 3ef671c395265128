from lib import *

NAME = "v31_complex_rope_positions"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "causal": (perturb(0, after(0, 6), 3, 64), upto_real(6, 1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=solo(1, n=6, left=True),
        note="ref = the left-padded prompt alone",
        label=dict(line_sub="allowed = (causal[None] & real[:, None, :]) | ~real[:, :, None]   # pad rows see everything",
                   why="freqs_cis is gathered per token, (B, T, head_dim/2), and unsqueezed on axis 2 to broadcast over heads of the (B, T, H, head_dim/2) layout: it varies along the sequence. The mask opens every key to pad query rows only (their outputs are never read by real rows, whose keys exclude padding); real rows are causal and see real keys only."),
    )
