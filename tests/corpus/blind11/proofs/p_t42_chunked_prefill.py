from lib import *

NAME = "t42_chunked_prefill"


def one_chunk(mod):
    model, args, kw = build(mod)
    out = run(model, args, kw)
    model.chunk = 12
    return maxdiff(out, run(model, args, kw))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("y = F.scaled_dot_product_attention(q, k, v, is_causal=True)",
              "y = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, k.size(2), dtype=torch.bool).tril(k.size(2) - T))")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 50), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=one_chunk,
        note="is_causal with Tq=4 < Tk aligns the triangle top-left: query i of a chunk sees keys 0..i of the whole cache, not its own",
        label=dict(expected=["causal-diagonal"], line_sub="y = F.scaled_dot_product_attention(q, k, v, is_causal=True)",
                   why="SDPA's is_causal builds a top-left aligned tril(Tq, Tk); for a chunk of 4 queries on a cache of 4-8 earlier keys, query i (absolute position start+i) sees only keys 0..i: its own key and the recent ones are hidden, so chunked prefill differs from one pass."),
    )
