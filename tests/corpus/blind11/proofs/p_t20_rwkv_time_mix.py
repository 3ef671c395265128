from lib import *

NAME = "t20_rwkv_time_mix"


def naive(mod):
    """the max-shifted recurrence equals the textbook WKV sum_i e^{-(t-1-i)w + k_i} v_i + e^{u + k_t} v_t over the same"""
    g = torch.Generator().manual_seed(0)
    k, v = torch.randn(2, 7, 5, generator=g), torch.randn(2, 7, 5, generator=g)
    w, u = -torch.rand(5, generator=g), torch.randn(5, generator=g)
    ref = []
    for t in range(7):
        num = torch.exp(u + k[:, t]) * v[:, t]
        den = torch.exp(u + k[:, t])
        for i in range(t):
            e = torch.exp((t - 1 - i) * w + k[:, i])
            num, den = num + e * v[:, i], den + e
        ref.append(num / den)
    return maxdiff(mod.wkv(w, u, k, v), torch.stack(ref, 1))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 50), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=naive,
        note="token shift pads one step at the front and drops the last; WKV is a causal recurrence",
        label=dict(expected=[], line_sub="out.append((e1 * aa + e2 * vt) / (e1 * bb + e2))",
                   why="RWKV time mixing is a causal linear recurrence (token shift looks one step back; the WKV state only accumulates past keys, with the bonus u for the current token); the max-shifted form equals the textbook sum."),
    )
