from lib import *

NAME = "u29_shaw_relpos"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 70), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 70), samp(0)),
        },
        ref=refs(solo(1, n=8), solo(2, n=4)),
        label=dict(expected=[], line_sub='scores = q @ k.transpose(-1, -2) + torch.einsum("bhqd,qkd->bhqk", q, a_k)',
                   why="Shaw et al.'s relative keys and values are (L_q, L_k, d) tables contracted with einsum over the head dimension (bhqd,qkd->bhqk and bhqk,qkd->bhqd); distances are clipped to +-3 by design. Padding is masked on the key axis; each sentence equals itself unpadded."),
    )
