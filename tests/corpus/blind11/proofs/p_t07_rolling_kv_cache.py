from lib import *

NAME = "t07_rolling_kv_cache"


def dense(mod):
    """the same weights, all positions at once with a (causal & window) mask"""
    model, args, kw = build(mod)
    ids = args[0]
    B, T = ids.shape
    a = model.attn
    with torch.no_grad():
        x = model.embed(ids)
        q, k, v = a.wqkv(model.norm1(x)).view(B, T, 3, a.h, a.dh).permute(2, 0, 3, 1, 4)
        pos = torch.arange(T)
        q, k = mod.rope(q, pos), mod.rope(k, pos)
        i, j = pos[:, None], pos[None, :]
        allowed = (j <= i) & (i - j < model.window)
        s = (q @ k.transpose(-1, -2)) * a.dh ** -0.5
        y = s.masked_fill(~allowed, float("-inf")).softmax(-1) @ v
        x = x + a.wo(y.transpose(1, 2).reshape(B, T, -1))
        x = x + model.mlp(model.norm2(x))
        ref = model.head(x)
    return maxdiff(run(model, args, kw), ref)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 40), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 40), samp(0)),
            "window": (perturb(0, lambda a, k: torch.arange(11)[None].expand(2, 11) < 6, 0, 40),
                       lambda o, a, k: o[:, 10]),
        },
        ref=dense,
        note="ring buffer scrambles key order, harmless since keys carry RoPE from absolute positions",
        label=dict(expected=[], line_sub="slot = self.seen % self.window",
                   why="The ring buffer overwrites the oldest slot; keys are rotated with their absolute positions before caching so slot order does not matter, and unfilled slots are masked; equals dense causal window-4 attention."),
    )
