from lib import *

NAME = "x44_speculative_verifier"


def nocache_ref(mod):
    """one full forward over prompt + drafts without a cache gives the same K + 1 logits"""
    model, args, kw = build(mod)
    out = run(model, args, kw)
    p, d = args
    with torch.no_grad():
        full, _ = model.target(torch.cat([p, d], dim=1))
    return maxdiff(out, full[:, p.size(1) - 1:])


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 2), 0, 70), lambda o, a, k: o[:, :4]),
            "batch": (chain(perturb(0, sample(0, 1), 0, 70), perturb(1, sample(1, 1), 0, 70)), samp(0)),
        },
        ref=nocache_ref,
        note="causal = the logits that judge drafts 0..2 (positions 0..3) ignore drafts 3 and 4; ref = the same logits from one uncached forward",
        label=dict(line_sub="y = F.scaled_dot_product_attention(q, k, v, attn_mask=j <= i)",
                   why="The verification queries are offset by the cache length: query t (absolute position past_len + t) may see key j when j <= past_len + t, a rectangular mask aligned to the lower right (True = attend). Positions continue from past_len, and the cached keys/values are those of the same sequence, so the K + 1 logits equal an uncached forward over prompt + drafts."),
    )
