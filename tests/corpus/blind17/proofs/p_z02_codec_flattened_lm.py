from lib import *

NAME = "z02_codec_flattened_lm"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 4, dim=1), 0, 32), upto(4, dim=1)),
            "batch": (perturb(0, sample(0, 1), 0, 32), samp(0)),
        },
        note="frames > 4 perturbed; outputs of frames <= 4 (all flattened positions up to 5*K-1) unchanged",
        label=dict(line_sub="future = torch.full((L, L), float(\"-inf\"), device=codes.device).triu(1)",
                   why="The K codebooks of each frame are flattened into one stream with a strict upper-triangular -inf mask; the per-position head is picked with a gather over the codebook axis, which selects a head rather than mixing positions, so nothing reads a later token."),
    )
