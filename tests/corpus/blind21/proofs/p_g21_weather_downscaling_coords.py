from lib import *

NAME = "g21_weather_downscaling_coords"


def others(a, k):
    m = torch.ones(a[1].shape[:2], dtype=torch.bool)
    m[:, 0] = False
    return m


def xattn_ref(sub, queries, q_xy, tokens, k_xy):
    """loop over heads; distances recomputed from coordinates; explicit softmax over the cells"""
    B, Q, D = queries.shape
    N = tokens.size(1)
    H = sub.heads
    dh = D // H
    q, k, v = sub.q(queries), sub.k(tokens), sub.v(tokens)
    d = ((q_xy[:, :, None, :] - k_xy[None, None, :, :]) ** 2).sum(-1).sqrt() * math.sqrt(N)
    outs = []
    for h in range(H):
        sl = slice(h * dh, (h + 1) * dh)
        logits = q[..., sl] @ k[..., sl].transpose(1, 2) / math.sqrt(dh) - F.softplus(sub.slope[h]) * d
        outs.append(torch.softmax(logits, -1) @ v[..., sl])
    return sub.o(torch.cat(outs, -1))


def interp_ref(mod):
    """bilinear interpolation exactly at a cell centre returns that cell's value; centres are in row-major order"""
    field = torch.randn(2, 3, 5, 7)
    centres = mod.cell_centres(5, 7)
    got = mod.bilinear_at(field, centres.expand(2, -1, -1))
    return maxdiff(got, field.flatten(2).transpose(1, 2))


def result():
    return prove(
        NAME, "correct",
        checks={
            "other_points": (chain(perturb(1, others), perturb(2, others)), lambda o, a, k: o[:, 0]),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.xattn, xattn_ref), interp_ref),
        note="other_points = the other target points move; ref = per-head loop with recomputed distances, and grid_sample at cell centres",
        label=dict(line_sub="bias = -F.softplus(self.slope)[None, :, None, None] * dist.unsqueeze(1)",
                   why="The additive float mask is a soft locality prior, not a padding mask: every cell stays visible with a penalty proportional to its distance, per head (slope varies along the head axis by design). Cell centres are built with indexing='ij' in the same row-major order as flatten(2), and grid_sample receives (x, y) = (lon, lat) via flip(-1)."),
    )
