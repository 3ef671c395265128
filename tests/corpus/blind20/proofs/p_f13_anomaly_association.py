from lib import *

NAME = "f13_anomaly_association"


def prior_ref(mod):
    """first layer's prior association vs a Gaussian kernel over |i-j| with the row's own sigma,
    normalized over the window; the series association must be a distribution over keys"""
    model, args, kw = build(mod)
    a = model.attn[0]
    grabbed = {}
    h = a.register_forward_hook(lambda m, i, o: grabbed.update(x=i[0], series=o[1], prior=o[2]))
    run(model, args, kw)
    h.remove()
    x = grabbed["x"]
    B, L, _ = x.shape
    with torch.no_grad():
        s = torch.sigmoid(a.sigma(x) * 5) + 1e-5
        s = 3 ** s - 1  # B L H
        want = torch.zeros(B, a.heads, L, L)
        for i in range(L):
            for j in range(L):
                d = float(abs(i - j))
                sig = s[:, i, :]
                want[:, :, i, j] = torch.exp(torch.tensor(-d * d) / (2 * sig ** 2)) / (math.sqrt(2 * math.pi) * sig)
        want = want / want.sum(-1, keepdim=True)
    rows = (grabbed["series"].sum(-1) - 1).abs().max().item()
    return max(maxdiff(grabbed["prior"], want), rows)


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, sample(0, 3)), samp(0)),
        },
        ref=prior_ref,
        note="ref = prior association vs an explicit per-row Gaussian kernel, and series rows sum to 1",
        label=dict(line_sub="score = torch.softmax(-discrepancy * self.temperature / len(self.attn), dim=-1) * err",
                   why="This softmax is the Anomaly Transformer's detection criterion, a normalization of the per-time association discrepancy over the window of one series (not attention weights); the attention itself normalizes over keys and the Gaussian prior is normalized over j per query row."),
    )
