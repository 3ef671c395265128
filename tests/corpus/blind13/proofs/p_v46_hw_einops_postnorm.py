from lib import *

NAME = "v46_hw_einops_postnorm"

def ln_ref(mod):
    model, args, kw = build(mod)
    ln = model.norm1[0]
    with torch.no_grad():
        ln.g.uniform_(0.5, 1.5)
        ln.b.uniform_(-0.5, 0.5)
        x = torch.randn(3, 12, 32, generator=torch.Generator().manual_seed(2)) * 3
        return maxdiff(ln(x), F.layer_norm(x, (32,), ln.g, ln.b, ln.eps))


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1), 1, 60), samp(0))},
        ref=refs(ln_ref, solo_cut(1, {0: 7}), solo_cut(2, {0: 10})),
        note="ref = the LayerNorm against F.layer_norm; each padded sentence alone, cut to its real tokens",
        label=dict(line_sub="var = torch.var(x, dim=-1, keepdim=True, unbiased=False)",
                   why="The LayerNorm takes the biased variance over the feature axis with eps inside the square root, matching nn.LayerNorm; rearrange splits (three h d) consistently with the merge (h d); torch.where keeps real keys and puts -1e9 on padded ones."),
    )
