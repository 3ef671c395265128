from lib import *

NAME = "g23_imu_gesture_multispan"


def span_ref(sub, x):
    """explicit per-head loop: head h at frame t sees frames t-span_h+1 .. t (all earlier frames if unlimited)"""
    B, T, D = x.shape
    H = sub.heads
    dh = D // H
    q, k, v = sub.qkv(x).split(D, dim=-1)
    outs = []
    for h in range(H):
        span = int(sub.spans[h])
        sl = slice(h * dh, (h + 1) * dh)
        rows = []
        for t in range(T):
            lo = max(0, t - span + 1)
            s = q[:, t, sl].unsqueeze(1) @ k[:, lo:t + 1, sl].transpose(1, 2) / dh ** 0.5
            rows.append((s.softmax(-1) @ v[:, lo:t + 1, sl]).squeeze(1))
        outs.append(torch.stack(rows, 1))
    return sub.proj(torch.cat(outs, -1))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 10)), upto(10)),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.attn[0], span_ref), module_ref(lambda m: m.attn[1], span_ref)),
        note="ref = per-head, per-frame loop over each head's look-back window",
        label=dict(line_sub="allowed = (rel >= 0) & (rel < self.spans.view(-1, 1, 1))",
                   why="The boolean mask (True = attend) is (H, T, T): it varies over the head axis on purpose (one look-back span per head) and broadcasts over the batch; rel >= 0 keeps it causal with the diagonal visible, and the front-end convolutions are left-padded by k-1 so they are causal too."),
    )
