from lib import *

NAME = "v47_hw_chunk_stack"

def sdpa_ref(mod):
    model, args, kw = build(mod)
    att = model.attn[0]
    x = torch.randn(2, 11, 32, generator=torch.Generator().manual_seed(1))
    B, T, D = x.shape
    H = att.heads
    split = lambda t: t.view(B, T, H, D // H).transpose(1, 2)
    with torch.no_grad():
        o = F.scaled_dot_product_attention(split(att.q(x)), split(att.k(x)), split(att.v(x)), is_causal=True)
        ref = att.out(o.transpose(1, 2).reshape(B, T, D))
        return maxdiff(att(x), ref)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 40), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 40), samp(0)),
        },
        ref=sdpa_ref,
        note="ref = the attention module against the usual view/transpose split with SDPA",
        label=dict(line_sub="return self.out(torch.cat(ctx.unbind(dim=1), dim=-1))",
                   why="chunk along features then stack on a new axis 1 is the usual (B, H, T, d_h) split, and unbind(1) + cat on the feature axis is the inverse merge; torch.where keeps the lower triangle. It equals view/transpose + SDPA(is_causal=True)."),
    )
