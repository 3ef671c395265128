from lib import *

NAME = "f08_hf_dinov2_depth"


def reassemble_ref(m, tokens, grid):
    """patch k of the row-major token sequence must land at grid cell (k // w, k % w)"""
    h, w = grid
    B, N, D = tokens.shape
    cls = tokens[:, 0]
    x = torch.zeros(B, D, h, w)
    for kk in range(N - 1):
        feat = m.readout(torch.cat([tokens[:, 1 + kk], cls], dim=-1))
        x[:, :, kk // w, kk % w] = feat
    return m.resample(m.proj(x))


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.reassemble[0], reassemble_ref), module_ref(lambda m: m.reassemble[3], reassemble_ref)),
        note="ref = reassembled maps (4x and 1/2x) vs placing patch k at cell (k // w, k % w) by hand",
        label=dict(line_sub="x = x.transpose(1, 2).reshape(x.size(0), x.size(2), h, w)",
                   why="The patch tokens come out of the ViT in row-major (row, column) order, so moving the feature axis forward and reshaping to (h, w) puts every token back at its own cell; the CLS readout is concatenated to each patch (DPT's 'project' readout) and dropped from the grid."),
    )
