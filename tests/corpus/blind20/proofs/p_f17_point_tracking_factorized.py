from lib import *

NAME = "f17_point_tracking_factorized"


def track_equivariance(mod):
    """permuting the tracks (and their mask) must permute the predictions the same way:
    nothing position-dependent may run along the track axis (which has the same size as time)"""
    model, args, kw = build(mod)
    feats, mask = args
    perm = torch.tensor([3, 0, 6, 1, 7, 2, 5, 4])
    a = run(model, (feats, mask), kw)
    b = run(model, (feats[:, perm], mask[:, perm]), kw)
    keep = mask[:, perm].bool()
    return maxdiff(a[:, perm][keep], b[keep])


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0)), real(1)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(track_equivariance, solo_cut(1, {0: 5, 1: 5}, out_cut=5)),
        note="ref = track-permutation equivariance, and video 1 run alone with only its 5 real tracks",
        label=dict(line_sub="x = self.inp(track_feats) + self.time_emb[:T]",
                   why="time_emb[:T] is (T, D) and broadcasting aligns it with the last two axes of the (B, N, T, D) grid, i.e. with time, not with tracks (N == T here only by the window size); time attention reshapes per track, the cross-track step goes through virtual tracks that only read valid tracks."),
    )
