from lib import *

NAME = "y09_mask2former_masked_attn"


def ref(mod):
    """1 if no query had an empty predicted mask (the guard is exercised), else 0; plus NaN check"""
    model, args, kw = build(mod)
    hit = []

    def hook(m, i, o):
        q, feat, heads = i
        with torch.no_grad():
            masks = torch.einsum("bqc,bchw->bqhw", m.mask_embed(m.norm(q)), feat)
        hit.append(bool((masks.flatten(2).sigmoid() < 0.5).all(-1).any()))

    h = model.head.register_forward_hook(hook)
    out = run(model, args, kw)
    h.remove()
    return 0.0 if any(hit[:-1]) and torch.isfinite(out).all() else 1.0


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 0)), samp(1)),
                "batch_pix": (perturb(1, sample(1, 0)), samp(1))},
        ref=ref,
        note="ref = 0 when some query's predicted mask is empty (the fallback is exercised) and the output is finite",
        label=dict(line_sub="attn_mask[attn_mask.all(dim=-1)] = False",
                   why="The attention mask is built from the queries' own predicted masks (True = blocked, the nn.MultiheadAttention convention), repeated per head batch-major to match MHA's (B*heads) layout, and a query whose mask is empty is allowed to attend everywhere, so no row is fully masked."),
    )
