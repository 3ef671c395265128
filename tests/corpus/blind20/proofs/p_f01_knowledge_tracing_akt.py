from lib import *

NAME = "f01_knowledge_tracing_akt"


def flip_after(t):
    """flip every response at positions > t (the strongest change of those answers)"""

    def f(args, kw):
        r = get(args, kw, 1).clone()
        r[:, t + 1:] = 1 - r[:, t + 1:]
        return put(args, kw, 1, r)

    return f


def monotonic_ref(m, query, key, value, allowed):
    """AKT distance written as sums: d(t, tau) = sqrt(|t - tau| * sum_{tau < t' <= t} gamma_{t, t'}),
    gamma = softmax over the visible keys; logits scaled by exp(-softplus(g) d) then softmax over visible keys"""
    B, T, D = query.shape
    H, dh = m.heads, m.dh
    sp = lambda t: t.view(B, T, H, dh).transpose(1, 2)
    q, k, v = sp(m.qk(query)), sp(m.qk(key)), sp(m.v(value))
    s = q @ k.transpose(-1, -2) / math.sqrt(dh)
    out = torch.zeros(B, H, T, dh)
    theta = F.softplus(m.gammas)[:, 0, 0]  # H
    for t in range(T):
        vis = [j for j in range(T) if allowed[t, j]]
        g = torch.softmax(s[:, :, t, vis], dim=-1)
        logits = []
        for a, tau in enumerate(vis):
            mass = g[..., a + 1:].sum(-1)
            d = torch.sqrt((mass * abs(t - tau)).clamp(min=0))
            logits.append(s[:, :, t, tau] * torch.exp(-theta[None, :] * d).clamp(1e-5, 1e5))
        w = torch.softmax(torch.stack(logits, -1), dim=-1)
        out[:, :, t] = (w.unsqueeze(-1) * v[:, :, vis]).sum(-2)
    return m.out(out.transpose(1, 2).reshape(B, T, D))


def result():
    pads = where_eq(0, 0)
    return prove(
        NAME, "correct",
        checks={
            # the answer at step 7 (and later) must not reach the prediction for step 7
            "causal_resp": (flip_after(6), upto(7)),
            "causal_ex": (perturb(0, after(0, 7), 1, 61), upto(7)),
            "padding": (chain(perturb(0, pads, 1, 61), perturb(1, pads, 0, 2)), lambda o, a, k: o[get(a, k, 0) != 0]),
            "batch": (chain(perturb(0, sample(0, 1), 1, 61), perturb(1, sample(1, 1), 0, 2)), samp(0)),
        },
        ref=module_ref(lambda m: m.retriever, monotonic_ref),
        note="ref = knowledge retriever vs AKT monotonic attention written with explicit sums",
        label=dict(line_sub="p = scores.masked_fill(~allowed, -1e32).softmax(dim=-1) * allowed",
                   why="The history is shifted by one, so the causal mask with the diagonal is right; this softmax only feeds the no-grad distance statistic, the masked weights are already exactly 0 (-1e32 in fp32), and the real attention is masked before its own softmax."),
    )
