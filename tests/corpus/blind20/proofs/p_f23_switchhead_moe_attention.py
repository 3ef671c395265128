from lib import *

NAME = "f23_switchhead_moe_attention"


def switchhead_ref(m, x):
    """per token and head: value = sum over the source token's top-k sigmoid experts; output = sum over
    the destination token's top-k experts; causal softmax attention in between"""
    B, T, _ = x.shape
    H, dh, E, k = m.heads, m.dh, m.E, m.k
    q = m.q(x).view(B, T, H, dh)
    kk = m.key(x).view(B, T, H, dh)
    sv = torch.sigmoid(m.sel_v(x)).view(B, T, H, E)
    so = torch.sigmoid(m.sel_o(x)).view(B, T, H, E)
    v = torch.zeros(B, T, H, dh)
    for b in range(B):
        for t in range(T):
            for h in range(H):
                for e in sv[b, t, h].topk(k).indices.tolist():
                    v[b, t, h] += sv[b, t, h, e] * (x[b, t] @ m.w_v[h, e])
    out = torch.zeros_like(x)
    for b in range(B):
        for t in range(T):
            for h in range(H):
                w = torch.softmax((q[b, t, h] * kk[b, : t + 1, h]).sum(-1) / math.sqrt(dh), dim=0)
                ctx = (w[:, None] * v[b, : t + 1, h]).sum(0)
                for e in so[b, t, h].topk(k).indices.tolist():
                    out[b, t] += so[b, t, h, e] * (ctx @ m.w_o[h, e])
    return out


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 0, 160), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 160), samp(0)),
        },
        ref=module_ref(lambda m: m.blocks[0].attn, switchhead_ref),
        note="ref = first SwitchHead layer vs per-token, per-head expert sums written as loops",
        label=dict(line_sub="v = torch.einsum(\"btc,hecd,bthe->bhtd\", x, self.w_v, g_v)",
                   why="SwitchHead gates experts with independent sigmoids (top-k, no softmax over experts, by design); the value experts are chosen by the source token and the output experts by the destination token, the einsums contract exactly (input channel, expert) and keep (batch, head, time) apart, and attention is causal SDPA over keys."),
    )
