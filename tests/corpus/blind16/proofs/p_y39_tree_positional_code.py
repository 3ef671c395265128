from lib import *

NAME = "y39_tree_positional_code"


def result():
    pad = lambda a, k: a[0] == 0
    return prove(
        NAME, "correct",
        checks={"padding": (perturb(1, pad), lambda o, a, k: o[a[0] != 0], pad_row(lambda m: m.type_emb, 0)),
                "batch": (chain(perturb(0, both(sample(0, 0), lambda a, k: a[0] != 0), 1, 40), perturb(1, sample(1, 0))), samp(1))},
        ref=solo_cut(1, {0: 7, 1: 7}, out_cut=7),
        note="ref: tree 1 (7 nodes) encoded alone gives the same node logits",
        label=dict(line_sub="decay = torch.tanh(self.p) ** levels",
                   why="The positional signal lives on the feature axis by design: each node's root-to-node path is a stack of one-hot child indices per level, weighted by a learned decay per level and projected; padded nodes are masked as keys, so only real nodes shape the outputs."),
    )
