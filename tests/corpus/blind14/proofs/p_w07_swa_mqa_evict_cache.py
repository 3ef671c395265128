from lib import *

NAME = "w07_swa_mqa_evict_cache"


def full_ref(mod):
    """the same weights run on the whole sequence at once with a banded causal mask"""
    model, args, kw = build(mod)
    ids = args[0]
    B, T = ids.shape
    W = model.layers[0].attn.window
    i, j = torch.arange(T)[:, None], torch.arange(T)[None, :]
    band = (j <= i) & (i - j < W)
    with torch.no_grad():
        x = model.tok(ids) + model.pos.weight[:T]
        for layer in model.layers:
            a = layer.attn
            h = layer.norm1(x)
            q = a.q_proj(h).view(B, T, a.h, a.dh).transpose(1, 2)
            k = a.k_proj(h)[:, None]
            v = a.v_proj(h)[:, None]
            o = F.scaled_dot_product_attention(q, k.expand(-1, a.h, -1, -1), v.expand(-1, a.h, -1, -1), attn_mask=band)
            x = x + a.o_proj(o.transpose(1, 2).reshape(B, T, -1))
            x = x + layer.ffn(layer.norm2(x))
        ref = model.head(model.norm(x))
    return maxdiff(run(model, args, kw), ref)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 80), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 80), samp(0)),
        },
        ref=full_ref,
        note="ref = whole-sequence pass with a banded causal mask (window 5)",
        label=dict(line_sub='cache["k"] = torch.cat([cache["k"], self.k_proj(x)], dim=1)[:, -self.window:]',
                   why="At decode time the cache only ever holds the current token and the window-1 before it (the oldest entries are sliced off), so the unmasked softmax over the cache is exactly banded causal attention; the single K/V head broadcasts over the query heads. It equals a full pass with the band mask (j <= i, i - j < window)."),
    )
