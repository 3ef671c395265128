from lib import *

NAME = "g24_rna_pairing_attention"


def valid(a):
    seq, lengths = a
    return torch.arange(seq.size(1))[None] < lengths[:, None]


def pairs(o, a, k):
    m = valid(a)
    return o[m[:, :, None] & m[:, None, :]]


def att_ref(sub, x, key_mask):
    B, L, D = x.shape
    q, k, v = sub.qkv(x).view(B, L, 3, sub.h, sub.dh).permute(2, 0, 3, 1, 4)
    o = F.scaled_dot_product_attention(q, k, v, attn_mask=key_mask[:, None, None, :])
    return sub.proj(o.transpose(1, 2).reshape(B, L, D))


def alone(mod):
    """each sequence run alone at its true length gives the same pairing map"""
    model, args, kw = build(mod)
    full = run(model, args, kw)
    worst = 0.0
    for i, n in enumerate(args[1].tolist()):
        one = run(model, (args[0][i:i + 1, :n], args[1][i:i + 1]), {})
        worst = max(worst, maxdiff(full[i:i + 1, :n, :n], one))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, lambda a, k: ~valid(a), 0, 4), pairs),
            "batch": (perturb(0, sample(0, 0), 0, 4), lambda o, a, k: o[1:]),
        },
        ref=refs(module_ref(lambda m: m.blocks[0].attn, att_ref), module_ref(lambda m: m.blocks[1].attn, att_ref), alone),
        note="ref = SDPA with a key-padding mask vs the key-major attention; each sequence alone at its true length",
        label=dict(line_sub="scores = scores.masked_fill(~key_mask[:, None, :, None], float(\"-inf\"))",
                   why="The score table is key-major (B, H, Lk, Lq): the padding mask is placed on axis -2, the key axis, the softmax normalises over dim=-2 (keys) and the weights are transposed before multiplying V; the pair features are zeroed outside real pairs before the 3x3 convolution, so padding never reaches a real base pair."),
    )
