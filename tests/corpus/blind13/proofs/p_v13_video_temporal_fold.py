from lib import *

NAME = "v13_video_temporal_fold"

H0, W0 = 1, 2


def spatial_leak(mod):
    """temporal attention: other spatial locations must not change when one location changes"""
    model, args, kw = build(mod)
    x = args[0]
    o1 = run(model, (x,), kw)
    x2 = x.clone()
    x2[:, :, :, H0, W0] = torch.randn(x2[:, :, :, H0, W0].shape, generator=torch.Generator().manual_seed(5)) * 2
    o2 = run(model, (x2,), kw)
    keep = torch.ones(x.shape[-2:], dtype=torch.bool)
    keep[H0, W0] = False
    return maxdiff(o1[..., keep], o2[..., keep])


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("h = x.permute(0, 2, 3, 4, 1).reshape(B * H * W, Fr, C)", "h = x.permute(0, 3, 4, 2, 1).reshape(B * H * W, Fr, C)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=spatial_leak,
        note="ref = change every frame of one pixel; all other pixels must keep their outputs (attention is over frames only)",
        label=dict(expected=["head-split"], also_ok_codes=["axis-mismatch"],
                   line_sub="h = x.permute(0, 2, 3, 4, 1).reshape(B * H * W, Fr, C)",
                   also_subs=["a = a.reshape(B, H, W, Fr, C).permute(0, 4, 3, 1, 2)"],
                   why="To fold pixels into the batch the frame axis must sit right before the channels: (B, H, W, F, C) -> (B*H*W, F, C). permute(0, 2, 3, 4, 1) gives (B, F, H, W, C), and reshaping that makes each 'sequence' of F steps out of F neighbouring pixels of one frame; the unfold (written for the right layout) then scatters the results to other frames and pixels. The temporal attention mixes pixels and frames, so a pixel's output depends on other pixels."),
    )
