from lib import *

NAME = "q12_evoformer_row"


def zpad(a, k):
    s = a[2][:, 0]  # residue mask [B, L]
    return (s[:, :, None] * s[:, None, :]) == 0


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(2, 0)), perturb(1, zpad)), real(2)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        note="row attention over residues with pair bias; mask bias inf*(mask-1) on the key axis",
        label=dict(expected=[], line_sub="mask_bias = (self.inf * (mask - 1))[..., :, None, None, :]  # [*, S, 1, 1, L]",
                   why="Key-residue mask bias [*,S,1,1,L] and pair bias [*,1,H,L,L] are added before a softmax over keys; padded residues cannot influence real ones."),
    )
