from lib import *

NAME = "v37_ntk_rope_cache"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 64), real(1)),
            "causal": (perturb(0, after(0, 6), 3, 64), upto_real(6, 1)),
            "batch": (perturb(0, sample(0, 1), 3, 64), samp(0)),
        },
        ref=solo(0, n=9, left=True),
        note="ref = the left-padded prompt alone",
        label=dict(line_sub="allowed = torch.where(real[:, :, None], causal[None] & real[:, None, :], torch.ones_like(causal)[None])",
                   why="The NTK base stretch is a constant of the model; the cos/sin cache only grows and is gathered by per-token position ids, so it varies along the sequence and counts real tokens. Real query rows are causal over real keys; pad rows may see everything, but nothing reads them."),
    )
