from lib import *

NAME = "z29_gmflow_matching"


def matching_ref(m, f0, f1):
    b, c, h, w = f0.shape
    q = f0.flatten(2).transpose(1, 2)
    k = f1.flatten(2).transpose(1, 2)
    ys, xs = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    grid = torch.stack([xs.flatten(), ys.flatten()], -1).float().expand(b, -1, -1)
    corr = F.scaled_dot_product_attention(q, k, grid)  # softmax(q k^T / sqrt(c)) @ grid
    return (corr - grid).transpose(1, 2).reshape(b, 2, h, w)


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("correlation = torch.matmul(f0, f1).view(b, h, w, h, w) / c",
              "correlation = torch.matmul(f0, f1).view(b, h, w, h, w) / (c ** 0.5)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=module_ref(lambda m: m.matching, matching_ref),
        label=dict(expected=["scale-factor"], line_sub="correlation = torch.matmul(f0, f1).view(b, h, w, h, w) / c",
                   why="The matching scores are divided by the feature size c instead of sqrt(c), so the matching distribution is far too flat and the expected correspondence is pulled toward the image centre."),
    )
