from lib import *

NAME = "g02_sports_tracking_centroid"
FIX = [("def to_scene_frame(xy):", "def to_scene_frame(xy, player_mask):"),
       ("rel = to_scene_frame(xy)", "rel = to_scene_frame(xy, player_mask)"),
       ("centroid = xy.mean(dim=2, keepdim=True)",
        "centroid = (xy * player_mask[:, None, :, None]).sum(2, keepdim=True) / player_mask.sum(1)[:, None, None, None]")]


def absent(a, k):
    return (~a[1])[:, None, :].expand(a[0].shape[:3])


def present(o, a, k):
    return o.transpose(1, 2)[a[1]]


def result():
    return prove(
        NAME, "buggy", harm="padding", fix=FIX,
        checks={
            "padding": (perturb(0, absent), present),
            "causal": (perturb(0, after(0, 4)), upto(4)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        note="padding = positions of the absent (padded) players changed",
        label=dict(expected=["padding-leak"], line_sub="centroid = xy.mean(dim=2, keepdim=True)",
                   also_subs=[], also_ok_codes=[], consequence_codes=[],
                   why="The scene centroid averages over all P player slots, including the padded ones that are zero-filled, so every real player's relative coordinates depend on what the padded slots contain (and on how much padding the clip has). The attention masks are right; the centroid must be a masked mean over the present players."),
    )
