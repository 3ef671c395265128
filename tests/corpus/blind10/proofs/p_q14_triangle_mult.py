from lib import *

NAME = "q14_triangle_mult"


def pad_pairs(a, k):
    s = a[1]
    return (s[:, :, None] * s[:, None, :]) == 0


def real_pairs(o, a, k):
    s = a[1]
    return o[(s[:, :, None] * s[:, None, :]) == 1]


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pad_pairs), real_pairs),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="outgoing/incoming triangle updates; masked edges zeroed before the k-contraction",
        label=dict(expected=[], line_sub='x = torch.einsum("bikc,bjkc->bijc", a, b)',
                   also_subs=["pair_mask = seq_mask[:, :, None] * seq_mask[:, None, :]"],
                   why="Both projections are multiplied by the pair mask before contracting over the third node k, so padded residues contribute nothing; LayerNorms are over channels."),
    )
