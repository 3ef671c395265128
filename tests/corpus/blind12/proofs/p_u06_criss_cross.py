from lib import *

NAME = "u06_criss_cross"


def loops(mod):
    """reference: for every pixel, a softmax over its row and column (itself once)"""
    model, args, kw = build(mod)
    cca = model.cca
    torch.manual_seed(0)
    x = torch.randn(2, 16, 5, 7)
    B, C, H, W = x.shape
    with torch.no_grad():
        got = cca(x)
        q, k, v = cca.query_conv(x), cca.key_conv(x), cca.value_conv(x)
        out = torch.zeros_like(x)
        for b in range(B):
            for i in range(H):
                for j in range(W):
                    cand = [(i2, j) for i2 in range(H) if i2 != i] + [(i, j2) for j2 in range(W)]
                    e = torch.stack([q[b, :, i, j] @ k[b, :, a, c] for a, c in cand]).softmax(0)
                    out[b, :, i, j] = sum(e[n] * v[b, :, a, c] for n, (a, c) in enumerate(cand))
        ref = cca.gamma * out + x
    return maxdiff(got, ref)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=loops,
        label=dict(expected=[], line_sub="energy_col = energy_col.masked_fill(self_in_col, float(\"-inf\"))",
                   why="CCNet removes the pixel itself from the column energies (-inf on i == j) because it is already in the row set; no row is fully masked, and the single softmax over the H + W candidates is by design (unscaled energies as in the paper). It matches a per-pixel loop."),
    )
