from lib import *

NAME = "f30_motion_diffusion_denoiser"


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("pad = F.pad(~frame_mask.bool(), (0, 1), value=False)",
              "pad = F.pad(~frame_mask.bool(), (1, 0), value=False)")],
        checks={
            "padding": (perturb(0, where_eq(3, 0)), real(3)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1))), samp(0)),
        },
        ref=refs(solo(1, n=14), solo(2, n=9)),
        note="ref = motions 1 and 2 denoised alone at their true length vs in the padded batch",
        label=dict(expected=["padding-leak"], line_sub="pad = F.pad(~frame_mask.bool(), (0, 1), value=False)",
                   also_subs=[], also_ok_codes=["mask-polarity", "mask-axis"], consequence_codes=[],
                   why="F.pad with (0, 1) appends the always-visible slot at the end instead of in front, so the padding mask is shifted by one against [cond, frames]: the last real frame of a padded motion is hidden and the last padded frame is visible. The denoised real frames then depend on the content of the padding."),
    )
