from lib import *

NAME = "u31_token_pruning"


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), lambda o, a, k: o[[0, 2]])},
        ref=refs(solo(0), solo(1), solo(2)),
        label=dict(expected=[], line_sub="top_val, top_idx = cls_attn.topk(k, dim=1)                          # per image",
                   why="The CLS attention row is averaged over heads (by design: a ranking score, not attention weights) and top-k runs over each image's own tokens (dim=1); gather/scatter use those per-image indices, so images stay independent and each equals itself run alone."),
    )
