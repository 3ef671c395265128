from lib import *

NAME = "q01_sasrec"


def result():
    m = lambda a, k: get(a, k, 1) == 1
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, both(after(0, 7), m), 1, 51), upto(7)),
            "padding": (perturb(0, where_eq(1, 0), 1, 51), real(1)),
            "batch": (perturb(0, both(sample(0, 1), m), 1, 51), samp(0)),
        },
        note="left-padded SASRec, causal & key-padding mask filled with finfo.min",
        label=dict(expected=[], line_sub="allowed = self.causal[:T, :T][None, None] & valid[:, None, None, :]",
                   why="Causal tril (diagonal kept) combined with key padding mask over the key axis; pads are left so pad query rows are fully masked but they are zeroed and never read."),
    )
