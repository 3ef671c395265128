from lib import *

NAME = "w05_pointcloud_knn_attention"

pads = lambda a, k: ~a[2]
real_pts = lambda o, a, k: o[a[2]]


def rows_sum_ref(mod):
    """the weights that multiply the values must sum to 1 over each query's neighbours"""
    model, args, kw = build(mod)
    got = {}
    orig = torch.bmm
    def spy(a, b):
        if a.dim() == 3 and a.size(-1) == a.size(-2) == args[0].size(1) and b.size(-1) == 32 and "w" not in got:
            got["w"] = a.detach().clone()
        return orig(a, b)
    torch.bmm = spy
    try:
        run(model, args, kw)
    finally:
        torch.bmm = orig
    w = got["w"]
    return (w.sum(-1) - 1).abs().max().item()


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("attn = attn * adj", "attn = attn * adj\n        attn = attn / attn.sum(dim=-1, keepdim=True)")],
        checks={
            "padding": (chain(perturb(0, pads), perturb(1, pads)), real_pts),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=rows_sum_ref,
        note="ref = largest deviation from 1 of the row sums of the weights applied to the values (first layer)",
        label=dict(expected=["mask-after-softmax"], also_ok_codes=["padding-leak"],
                   line_sub="attn = attn * adj", also_subs=["attn = torch.softmax(scores, dim=-1)"], consequence_codes=[],
                   why="The k-nearest-neighbour adjacency is applied by multiplying the softmax weights with a 0/1 matrix and is never renormalized: each row keeps only the share of probability its neighbours got in a softmax over all points, padded points included. The weights no longer sum to 1 and the real points' outputs change with the coordinates and colours of padding points. Mask the scores before the softmax (or renormalize)."),
    )
