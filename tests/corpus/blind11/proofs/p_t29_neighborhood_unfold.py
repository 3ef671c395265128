from lib import *

NAME = "t29_neighborhood_unfold"


def locality(mod):
    """one NA layer: the output at pixel (0, 0) depends only on its 3x3 neighbourhood"""
    torch.manual_seed(0)
    na = mod.NeighborhoodAttention2D(32, 4).eval()
    x = torch.randn(1, 32, 6, 7)
    y = x.clone()
    y[:, :, 2:, :] = torch.randn(1, 32, 4, 7)
    y[:, :, :, 2:] = torch.randn(1, 32, 6, 5)
    with torch.no_grad():
        return maxdiff(na(x)[:, :, 0, 0], na(y)[:, :, 0, 0])


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=refs(locality, solo(1, pooled=True)),
        note="softmax over the k*k neighbour axis (dim=2 of (B, h, k2, HW)); zero-padded neighbours masked",
        label=dict(expected=[], line_sub="attn = scores.softmax(dim=2)  # over the k2 neighbours of each pixel",
                   why="In the unfold layout (B, h, k2, HW) the neighbours (keys) are axis 2, so softmax(dim=2) is over the keys; padding positions created by unfold are masked with -inf; GroupNorm(1, C) normalizes each sample over (C, H, W) as in ConvNeXt/NAT-style code, never across samples."),
    )
