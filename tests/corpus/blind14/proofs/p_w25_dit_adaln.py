from lib import *
from einops import rearrange

NAME = "w25_dit_adaln"


def unpatchify_ref(mod):
    model, args, kw = build(mod)
    seen = []
    h = model.out.register_forward_hook(lambda m, i, o: seen.append(o.detach()))
    out = run(model, args, kw)
    h.remove()
    p, g = model.patch, model.grid
    want = rearrange(seen[0], "b (h w) (p q c) -> b c (h p) (w q)", h=g, w=g, p=p, q=p)
    return maxdiff(out, want)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 0, 10)), samp(0))},
        ref=unpatchify_ref,
        note="ref = the unpatchify view/permute against einops 'b (h w) (p q c) -> b c (h p) (w q)'",
        label=dict(line_sub="sh1, sc1, g1, sh2, sc2, g2 = self.ada(F.silu(c))[:, None, :].chunk(6, dim=-1)",
                   why="The conditioning vector is per sample, so shift/scale/gate are (B, 1, D) and broadcast over the tokens: they vary along the batch and feature axes by design (adaLN), not along the sequence. SDPA uses the default 1/sqrt(head_dim) scale, and the unpatchify permutation (b, gh, gw, p, q, c) -> (b, c, gh, p, gw, q) puts each patch back in place."),
    )
