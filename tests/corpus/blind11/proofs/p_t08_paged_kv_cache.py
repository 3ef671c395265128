from lib import *

NAME = "t08_paged_kv_cache"


def contiguous(mod):
    """each sequence alone, prompt + new tokens in one causal pass with the model's own layers"""
    model, args, kw = build(mod)
    ids, lens, new, tables = args
    out = run(model, args, kw)
    worst = 0.0
    with torch.no_grad():
        for i in range(3):
            seq = torch.cat([ids[i, : lens[i]], new[i]])[None]
            T = seq.size(1)
            x = model.embed(seq) + model.pos(torch.arange(T))[None]
            for layer in model.layers:
                cache = mod.PagedKVCache(*model.cache_shape)
                slots = torch.arange(T)[None]
                x = layer(x, cache, slots, torch.ones_like(slots, dtype=torch.bool),
                          lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True))
            worst = max(worst, maxdiff(model.head(x)[0, -3:], out[i]))
    return worst


def result():
    pads = lambda a, k: torch.arange(9)[None] >= get(a, k, 1)[:, None]
    s1 = lambda key: perturb(key, sample(key, 1), 1, 50)
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads, 1, 50), whole()),
            "batch": (chain(s1(0), s1(2)), samp(0)),
        },
        ref=contiguous,
        note="block tables scatter the cache over shuffled physical blocks; gather + context_lens mask gives back each sequence",
        label=dict(expected=[], line_sub="valid = torch.arange(k.size(1))[None, :] < context_lens[:, None]",
                   why="Keys are written to physical slots from the block table and read back in logical order; the valid mask covers exactly the context (prompt + decoded tokens incl. the current one); equals a plain causal pass per sequence."),
    )
