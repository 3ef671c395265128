from lib import *

NAME = "q52_unet_attn"


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(2, where_eq(3, 0), 1, 40), whole()),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, both(sample(2, 1), where_eq(3, 1)), 1, 40)), samp(0)),
        },
        note="GroupNorm over (channel group, H, W) per sample is the intended UNet norm; text padding mask is a bool keep-mask over context keys for SDPA",
        label=dict(expected=[], line_sub="x = self.proj_in(self.norm(x))",
                   also_subs=["mask = None if context_mask is None else context_mask[:, None, None, :]"],
                   why="GroupNorm statistics over channels-in-group and space are standard for diffusion UNets (per sample); spatial self-attention over h*w tokens; cross-attention masks padded text keys (True = attend)."),
    )
