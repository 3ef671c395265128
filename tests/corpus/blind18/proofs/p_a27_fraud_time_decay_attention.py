from lib import *

NAME = "a27_fraud_time_decay_attention"


def pads(args, kw):
    return ~args[3]


def positive(f, key):
    """amounts must stay positive (log1p)"""
    def g(args, kw):
        args, kw = f(args, kw)
        return put(args, kw, key, get(args, kw, key).abs())
    return g


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (chain(perturb(0, after(0, 5), 0, 50), positive(perturb(1, after(1, 5)), 1)), upto(5)),
            "padding": (chain(perturb(0, pads, 0, 50), positive(perturb(1, pads), 1)), real(3, keep=True)),
            "batch": (positive(perturb(1, sample(1, 0)), 1), samp(1)),
        },
        label=dict(line_sub="blocked = future | ~valid[:, None, None, :]",
                   why="The float attn_mask carries a per-head non-positive time-decay bias plus -inf on future keys and padded keys (mask broadcast along the key axis); the diagonal is always open, so every real transaction sees itself and its past only."),
    )
