from lib import *

NAME = "w09_video_temporal_attn"

F_ = 6
video1 = lambda a, k: torch.arange(a[0].size(0)) >= F_


def pix_pert(args, kw):
    x = args[0].clone()
    x[:, :, 0, 0] = torch.randn(x.shape[:2], generator=torch.Generator().manual_seed(5))
    return (x,), kw


def video_ref(mod):
    model, args, kw = build(mod)
    full = run(model, args, kw)
    one = run(model, (args[0][F_:],), kw)
    return maxdiff(full[F_:], one)


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, video1), lambda o, a, k: o[:F_]),
            "pixel": (pix_pert, lambda o, a, k: o[:, :, 1:, :]),
        },
        ref=video_ref,
        note="batch = changing video 1 (rows 6..11 of the folded batch) must not move video 0; pixel = changing pixel (0,0) in every frame moves no other pixel; ref = video 1 alone",
        label=dict(line_sub='x = rearrange(hidden_states, "(b f) c h w -> (b h w) f c", f=num_frames)',
                   why="The U-Net folds frames into the batch dimension; the motion module unfolds them with (b f) and attends over the frame axis at each pixel, which is what temporal attention is meant to do. Rows of the module's input batch axis that belong to the same video are meant to interact; different videos and different pixels never do."),
    )
