from lib import *

NAME = "v40_longformer_global"

def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 3, 80), real(1)),
            "batch": (perturb(0, sample(0, 1), 3, 80), samp(0)),
        },
        label=dict(line_sub="out = torch.where(global_rows[:, None, :, None], out_g, out)",
                   why="Local rows see the band and the global tokens, global rows (own projections) see every real token; padded keys are removed from both patterns and the global flags are intersected with the real tokens. Pad query rows still see the global keys, so no row is empty; the -1e4 fill on the QA logits of padded positions is an output mask."),
    )
