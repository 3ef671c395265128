from lib import *

NAME = "z30_flow_target_major"


def head_ref(m, f0, f1):
    b, c, h, w = f0.shape
    x0 = f0.flatten(2).transpose(1, 2)
    x1 = f1.flatten(2).transpose(1, 2)
    ys, xs = torch.meshgrid(torch.arange(h).float(), torch.arange(w).float(), indexing="ij")
    grid = torch.stack([xs, ys], -1).view(-1, 2).expand(b, -1, -1)
    flow = F.scaled_dot_product_attention(x0, x1, grid) - grid  # query = frame-0 pixel
    p = m.proj(x0)
    flow = F.scaled_dot_product_attention(m.prop_q(p), m.prop_k(p), flow)
    return flow.transpose(1, 2).reshape(b, 2, h, w)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=module_ref(lambda m: m.head, head_ref),
        label=dict(line_sub="match = corr.softmax(dim=1)",
                   why="The correlation volume is laid out (B, HW_1, HW_0) with frame-1 candidates on dim 1, so softmax(dim=1) normalises each frame-0 pixel's matching distribution over the candidates (the key axis); the einsum then contracts that same axis."),
    )
