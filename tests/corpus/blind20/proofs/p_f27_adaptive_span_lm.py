from lib import *

NAME = "f27_adaptive_span_lm"


def span_ref(m, x):
    """softmax over keys of logits + log m_z(distance), keys outside the span or in the future excluded"""
    B, T, D = x.shape
    H, dh = m.heads, m.dh
    q, k, v = m.qkv(x).view(B, T, 3, H, dh).permute(2, 0, 3, 1, 4)
    s = q @ k.transpose(-1, -2) / math.sqrt(dh)
    out = torch.zeros(B, H, T, dh)
    for h in range(H):
        z = float(m.span_frac[h].clamp(0, 1)) * m.max_span
        for i in range(T):
            logit = []
            for j in range(i + 1):
                mz = min(max((m.ramp + z - (i - j)) / m.ramp, 0.0), 1.0)
                logit.append(s[:, h, i, j] + (math.log(mz) if mz > 0 else float("-inf")))
            w = torch.softmax(torch.stack(logit, -1), dim=-1)
            out[:, h, i] = (w.unsqueeze(-1) * v[:, h, : i + 1]).sum(1)
    return m.out(out.transpose(1, 2).reshape(B, T, D))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 9), 0, 96), upto(9)),
            "batch": (perturb(0, sample(0, 1), 0, 96), samp(0)),
        },
        ref=module_ref(lambda m: m.attn[0], span_ref),
        note="ref = first layer vs softmax with log span mask added to the logits",
        label=dict(line_sub="attn = attn * self.span_mask(T, x.device)",
                   why="Multiplying the softmax weights by the soft span mask is the adaptive-span design, and the next line renormalizes over the keys, so each row is again a distribution (equal to a softmax with log m_z added); the diagonal always keeps mask 1, so no row becomes empty, and the causal mask is applied before the softmax."),
    )
