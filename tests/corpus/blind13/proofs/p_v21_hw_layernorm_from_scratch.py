from lib import *

NAME = "v21_hw_layernorm_from_scratch"

def ref(mod):
    model, args, kw = build(mod)
    ln = model.blocks[0].norm1
    with torch.no_grad():
        ln.gain.uniform_(0.5, 1.5)
        ln.bias.uniform_(-0.5, 0.5)
    x = torch.randn(3, 10, 32, generator=torch.Generator().manual_seed(2)) * 3
    with torch.no_grad():
        return maxdiff(ln(x), F.layer_norm(x, (32,), ln.gain, ln.bias, ln.eps))


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("var = torch.var(x, dim=-1, keepdim=True)", "var = torch.var(x, dim=-1, keepdim=True, unbiased=False)")],
        checks={"batch": (perturb(0, sample(0, 1), 1, 100), samp(0))},
        ref=refs(ref, solo_cut(0, {0: 8}), solo_cut(2, {0: 5})),
        note="ref = F.layer_norm with the module's parameters; and each padded sample alone, cut to its real tokens (the pad mask comes from the ids)",
        label=dict(expected=["layernorm-variance"], line_sub="var = torch.var(x, dim=-1, keepdim=True)",
                   why="torch.var is unbiased by default (divides by d - 1); layer normalization uses the population variance (divide by d). With d = 32 every normalized activation is off by a factor sqrt(31/32) compared with nn.LayerNorm."),
    )
