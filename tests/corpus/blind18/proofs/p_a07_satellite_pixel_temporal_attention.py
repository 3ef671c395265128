from lib import *

NAME = "a07_satellite_pixel_temporal_attention"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (chain(perturb(0, where_eq(2, 0)), perturb(1, where_eq(2, 0), 0, 365)), whole()),
            "batch": (perturb(0, sample(0, 2)), samp(0)),
        },
        label=dict(line_sub='scores = torch.einsum("hk,bshk->bhs", self.master_q, k) / math.sqrt(self.d_k)',
                   why="One learned master query per head scores the acquisitions (scale 1/sqrt(d_k), d_k the contracted size); positions come from the acquisition day, not the index, and cloudy dates are removed with -1e9 before the softmax over the date axis; values are the input split into channel groups per head, as in L-TAE."),
    )
