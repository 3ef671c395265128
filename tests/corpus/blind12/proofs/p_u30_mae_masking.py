from lib import *

NAME = "u30_mae_masking"
pred = lambda o: o[0]


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("ids_restore = torch.argsort(ids_shuffle, dim=0)", "ids_restore = torch.argsort(ids_shuffle, dim=1)")],
        checks={
            # another image's noise (its own mask draw) must not change this image's reconstruction
            "batch": (perturb(1, sample(1, 0)), lambda o, a, k: o[1:]),
        },
        pick=pred,
        ref=refs(solo(1, pick=pred), solo(2, pick=pred)),
        note="the inverse permutation is argsorted over the batch axis: its entries are batch ranks (0..2), not patch indices",
        label=dict(expected=["batch-leak"], line_sub="ids_restore = torch.argsort(ids_shuffle, dim=0)",
                   also_subs=["y_ = torch.gather(y_, 1, ids_restore[..., None].expand(-1, -1, y.size(2)))"],
                   why="The inverse of the per-sample shuffle is argsort over the patch axis (dim=1); argsort over dim=0 ranks the samples against each other, so the indices that unshuffle sample b's decoder tokens (and its mask) depend on the other samples' noise, and every patch is filled from the first three slots."),
    )
