from lib import *

NAME = "t14_rope2d"


def shifted(mod):
    """rotary attention sees only relative offsets: moving the whole grid by (2, 5) changes nothing,
    and neither does permuting the patches (with their coordinates)"""
    model, args, kw = build(mod)
    patches, coords = args
    out = run(model, args, kw)
    moved = run(model, (patches, coords + torch.tensor([2, 5])), {})
    perm = torch.randperm(12, generator=torch.Generator().manual_seed(1))
    permuted = run(model, (patches[:, perm], coords[:, perm]), {})
    return max(maxdiff(out, moved), maxdiff(out[:, perm], permuted))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(shifted, solo(1)),
        note="2D RoPE: rows rotate the first half of each pair's frequencies, columns the second",
        label=dict(expected=[], line_sub="return torch.cat([rows, cols], dim=-1)",
                   why="Axial 2D rotary: the (B, N, d/2) angle table varies along the patch axis only (via each patch's row and column), broadcast over heads; attention depends only on relative offsets (proven by shifting and permuting the grid)."),
    )
