from lib import *

NAME = "f12_lip_reading_ctc"


def padded_frames(a, k):
    T = a[0].size(2)
    return (torch.arange(T)[None, :] >= a[1][:, None])[:, None, :]


def real_frames(o, a, k):
    return o[torch.arange(o.size(1))[None, :] < a[1][:, None]]


def solo_clip(i):
    def ref(mod):
        model, args, kw = build(mod)
        video, lengths = args
        full = run(model, args, kw)
        n = int(lengths[i])
        one = run(model, (video[i:i + 1, :, :n], lengths[i:i + 1]), kw)
        return maxdiff(full[i:i + 1, :n], one)

    return ref


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("nn.BatchNorm3d(ch, track_running_stats=False),", "nn.BatchNorm3d(ch),")],
        checks={
            "batch": (perturb(0, sample(0, 0)), lambda o, a, k: real_frames(o, a, k)[16:]),
            "padding": (perturb(0, padded_frames), real_frames),
        },
        ref=refs(solo_clip(1), solo_clip(2)),
        note="ref = clips 1 and 2 decoded alone at their true length vs in the padded batch",
        label=dict(expected=["batch-leak"], line_sub="nn.BatchNorm3d(ch, track_running_stats=False),",
                   also_subs=[], also_ok_codes=["layernorm-axis"], consequence_codes=["padding-leak"],
                   why="A BatchNorm3d without running statistics normalizes with the statistics of the current batch even in eval mode (over all clips, frames and pixels, zeroed padding frames included). The character posteriors of one clip change with the other clips in the batch and with how much padding the batch has."),
    )
