from lib import *

NAME = "t11_llava_splice"


def result():
    text_after = lambda t: lambda a, k: (torch.arange(14)[None] > t) & (get(a, k, 0) != 47) & (get(a, k, 2) == 1)
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(2, 0), 1, 40), real(2)),
            "causal": (perturb(0, text_after(9), 1, 40), upto_real(9, 2)),
            "batch": (chain(perturb(0, both(sample(0, 1), lambda a, k: get(a, k, 0) != 47), 1, 40),
                            perturb(1, sample(1, 1))), samp(0)),
        },
        ref=solo(1, n=10, left=True),
        note="masked_scatter fills the placeholder rows in order; left padding handled by cumsum positions and a finfo.min bias",
        label=dict(expected=[], line_sub="position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)",
                   why="Image features replace the placeholder embeddings sample by sample (masked_scatter fills in row order, 4 per sample); positions count only real tokens of the left-padded prompt; causal & key-padding bias with finfo.min keeps pad rows finite; equals the sample run unpadded."),
    )
