from lib import *

NAME = "w27_unet_spatial_headsplit"


def reference(att, x, context=None):
    context = x if context is None else context
    split = lambda t: t.view(t.size(0), t.size(1), att.heads, att.dim_head).transpose(1, 2)
    o = F.scaled_dot_product_attention(split(att.to_q(x)), split(att.to_k(context)), split(att.to_v(context)))
    return att.to_out(o.transpose(1, 2).reshape(x.size(0), x.size(1), -1))


def call_ref(mod):
    model, args, kw = build(mod)
    calls = []
    h1 = model.attn1.register_forward_hook(lambda m, i, o: calls.append((m, i, {}, o)))
    h2 = model.attn2.register_forward_hook(lambda m, i, o: calls.append((m, i, {}, o)), with_kwargs=False)
    # attn2 receives context as a keyword: capture it with a pre-hook
    ctx = {}
    h3 = model.attn2.register_forward_pre_hook(lambda m, a, k: ctx.update(k), with_kwargs=True)
    run(model, args, kw)
    for h in (h1, h2, h3):
        h.remove()
    worst = 0.0
    with torch.no_grad():
        for m, i, _, o in calls:
            r = reference(m, i[0], ctx.get("context") if m is model.attn2 else None)
            worst = max(worst, maxdiff(o, r))
    return worst


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("return t.reshape(b, self.heads, n, self.dim_head)", "return t.reshape(b, n, self.heads, self.dim_head).transpose(1, 2)")],
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1))), samp(0))},
        ref=call_ref,
        note="ref = both attention modules against the usual (b, n, h, d) -> (b, h, n, d) split with SDPA, on the inputs they received",
        label=dict(expected=["head-split"], also_ok_codes=[], line_sub="return t.reshape(b, self.heads, n, self.dim_head)",
                   also_subs=[], consequence_codes=["head-merge"],
                   why="A (b, n, heads*dim_head) projection must be viewed as (b, n, heads, dim_head) and transposed. Reshaping it straight to (b, heads, n, dim_head) cuts the flattened token-major memory into heads: 'head' 0 holds the first n/heads pixels' full feature vectors, and each new 'token' row mixes features of several pixels. Attention then runs over fragments of pixels and the merge back cannot undo it."),
    )
