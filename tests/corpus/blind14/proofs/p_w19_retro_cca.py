from lib import *

NAME = "w19_retro_cca"


def chunk_nbrs(c):
    return lambda a, k: (torch.arange(a[1].size(1)) == c)[None, :].expand(a[1].shape[:2])


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(1, lambda a, k: a[2]), whole()),
            "causal": (perturb(0, after(0, 5), 0, 90), upto(5)),
            "retrieval_causal_c0": (perturb(1, chunk_nbrs(0)), upto(2)),
            "retrieval_causal_c1": (perturb(1, chunk_nbrs(1)), upto(6)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 90), perturb(1, sample(1, 1))), samp(0)),
        },
        note="retrieval_causal_c = neighbours retrieved with chunk c (tokens 4c..4c+3) may only reach positions >= 4c+3",
        label=dict(line_sub="shifted = x[:, C - 1:]",
                   why="RETRO's shift: after dropping the first chunk_len - 1 positions, chunk c of the shifted sequence starts at the last token of chunk c, so only tokens at or after the end of chunk c read the neighbours retrieved with chunk c. Padded neighbour tokens get a -inf bias; every neighbour has real tokens so no row is empty. The leading positions get no retrieval and are zeroed explicitly."),
    )
