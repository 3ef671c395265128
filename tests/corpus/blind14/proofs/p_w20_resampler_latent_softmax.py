from lib import *

NAME = "w20_resampler_latent_softmax"


def row_sums(mod):
    """weights used in the attention-times-values einsum must sum to 1 over the keys"""
    model, args, kw = build(mod)
    seen = []
    orig = torch.einsum

    def spy(eq, *ops):
        if eq.replace(" ", "") == "bhij,bhjd->bhid":
            seen.append(ops[0].detach().clone())
        return orig(eq, *ops)

    torch.einsum = spy
    try:
        run(model, args, kw)
    finally:
        torch.einsum = orig
    return max((w.sum(-1) - 1).abs().max().item() for w in seen)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("attn = sim.softmax(dim=-2)", "attn = sim.softmax(dim=-1)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=row_sums,
        note="ref = largest deviation from 1 of the attention rows summed over keys",
        label=dict(expected=["softmax-axis"], also_ok_codes=[], line_sub="attn = sim.softmax(dim=-2)",
                   also_subs=[], consequence_codes=[],
                   why="sim has shape (b, h, latents, keys) and the next einsum sums attn against v over j (the keys), so the softmax must run over dim=-1. dim=-2 normalizes each key's column over the 8 latents instead: a latent's weights over the 35 keys no longer form a distribution and the latents compete for keys (slot-attention style) rather than each reading the media."),
    )
