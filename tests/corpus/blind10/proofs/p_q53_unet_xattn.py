from lib import *

NAME = "q53_unet_xattn"


def ref(mod):
    torch.manual_seed(3)
    a = mod.Attention(32, 24).eval()
    x, ctx = torch.randn(2, 9, 32), torch.randn(2, 5, 24)
    m = torch.ones(2, 5, dtype=torch.bool); m[1, 3:] = False
    with torch.no_grad():
        sp = lambda t: t.view(2, t.size(1), 4, 8).transpose(1, 2)
        r = F.scaled_dot_product_attention(sp(a.to_q(x)), sp(a.to_k(ctx)), sp(a.to_v(ctx)), attn_mask=m[:, None, None, :])
        return maxdiff(a(x, ctx, m), a.to_out(r.transpose(1, 2).reshape(2, 9, 32)))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("self.scale = inner_dim ** -0.5", "self.scale = dim_head ** -0.5")],
        checks={
            "padding": (perturb(1, where_eq(2, 0), 1, 40), whole()),
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=ref,
        note="scale uses the total inner dim (heads*dim_head = 32) instead of the per-head contraction size 8; ref = SDPA",
        label=dict(expected=["scale-factor"], line_sub="self.scale = inner_dim ** -0.5",
                   also_subs=['sim = torch.einsum("b i d, b j d -> b i j", q, k) * self.scale'],
                   why="Scores contract over dim_head=8 per head, but they are scaled by 1/sqrt(heads*dim_head)=1/sqrt(32)."),
    )
