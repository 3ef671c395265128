from lib import *

NAME = "y34_simmim_beit_relpos"


def masked_pixels(args, kw):
    """(B, 3, H, W) True on the pixels of masked patches"""
    m = args[1].view(-1, 1, 4, 4).float()
    return F.interpolate(m, scale_factor=4, mode="nearest").bool().expand(-1, 3, -1, -1)


def ref(mod):
    """the index map: cls row/column use the 3 extra entries, and patch offsets are symmetric in the table layout"""
    rp = mod.RelativePositionBias((4, 4), 2)
    idx = rp.index
    n = rp.num_relative_distance
    ok = int(idx[0, 0]) == n - 1 and bool((idx[0, 1:] == n - 3).all()) and bool((idx[1:, 0] == n - 2).all())
    ok = ok and int(idx[1:, 1:].max()) < n - 3 and bool((idx[1:, 1:].diagonal() == idx[1, 1]).all())
    return 0.0 if ok else 1.0


def result():
    return prove(
        NAME, "correct",
        checks={"masked_content": (perturb(0, masked_pixels), whole()),
                "batch": (perturb(0, sample(0, 0)), samp(1))},
        ref=ref,
        note="masked_content: the pixels under masked patches do not reach the encoder; ref checks the bias index layout",
        label=dict(line_sub="x = x * (1 - w) + self.mask_token.expand(B, L, -1) * w",
                   why="Masked patch embeddings are replaced (not added to) by the [MASK] token, so the hidden pixels cannot leak into the reconstruction; the bias table has (2Wh-1)(2Ww-1)+3 rows with the last three for cls interactions, gathered per head and added before the softmax."),
    )
