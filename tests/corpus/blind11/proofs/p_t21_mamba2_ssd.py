from lib import *

NAME = "t21_mamba2_ssd"


def sequential(mod):
    """the chunked SSD equals the plain recurrence h_t = exp(A_t) h_{t-1} + B_t x_t, y_t = C_t h_t"""
    g = torch.Generator().manual_seed(0)
    b, l, h, p, n = 2, 12, 3, 4, 5
    X, B, C = torch.randn(b, l, h, p, generator=g), torch.randn(b, l, h, n, generator=g), torch.randn(b, l, h, n, generator=g)
    A = -torch.rand(b, l, h, generator=g)
    state = torch.zeros(b, h, p, n)
    ys = []
    for t in range(l):
        state = torch.exp(A[:, t])[..., None, None] * state + X[:, t, :, :, None] * B[:, t, :, None, :]
        ys.append(torch.einsum("bhpn,bhn->bhp", state, C[:, t]))
    return maxdiff(mod.ssd_chunked(X, A, B, C, 4), torch.stack(ys, 1))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 9), 0, 50), upto(9)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=sequential,
        note="segsum's -inf above the diagonal makes L lower-triangular; conv padded d_conv-1 then cut to L",
        label=dict(expected=[], line_sub="return x_segsum.masked_fill(~mask, -torch.inf)",
                   why="Mamba-2's SSD: exp(segsum) is a causal decay matrix (diagonal kept), chunk states pass forward only; the depthwise conv is left-padded and truncated; equals the sequential scan."),
    )
