from lib import *

NAME = "u28_cosine_window_attention"
feats = lambda o: o[1]


def result():
    # one Swin block layer pair without shifts: pixels of the top-left 8x8 image patch (feature
    # window 0) only influence feature window 0
    top_left = lambda a, k: (torch.arange(16)[:, None] < 8) & (torch.arange(16)[None, :] < 8)
    img_tl = lambda a, k: top_left(a, k)[None, None].expand(get(a, k, 0).shape)
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
            "window": (perturb(0, img_tl), lambda o, a, k: torch.cat([o[:, 4:].flatten(1), o[:, :4, 4:].flatten(1)], 1)),
        },
        pick=feats,
        label=dict(expected=[], line_sub="attn = attn * logit_scale",
                   why="Swin-v2 scaled cosine attention: q and k are unit vectors, so the similarity is multiplied by a learned per-head logit scale (clamped at 100) instead of 1/sqrt(d); this is by design. Windows are carved with view/permute that keep rows and columns intact; window attention is local (changing one window's pixels leaves the others unchanged)."),
    )
