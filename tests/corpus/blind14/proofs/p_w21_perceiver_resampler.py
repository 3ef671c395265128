from lib import *

NAME = "w21_perceiver_resampler"


def pad_frames(a, k):
    return torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def clip_ref(i, n):
    def ref(mod):
        model, args, kw = build(mod)
        full = run(model, args, kw)
        one = run(model, (args[0][i:i + 1, :n], args[1][i:i + 1]), {})
        return maxdiff(full[i:i + 1], one)
    return ref


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pad_frames), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(clip_ref(1, 2), clip_ref(2, 3)),
        note="ref = each clip cut to its frames and resampled alone",
        label=dict(line_sub="keep = torch.cat([media_keep, media_keep.new_ones(B, L)], dim=1)",
                   why="The boolean SDPA mask is True = attend; it is built per frame, expanded to the frame's patches with repeat_interleave (frame-major layout), and extended with ones for the latents, which Flamingo appends to the keys. Query and key lengths differ (latents vs media + latents), which is expected. Padded frames never reach the latents."),
    )
