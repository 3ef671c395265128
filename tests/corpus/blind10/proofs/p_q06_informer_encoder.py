from lib import *

NAME = "q06_informer_encoder"


def ln_ref(mod):
    torch.manual_seed(1)
    n = mod.FeatureNorm(32)
    with torch.no_grad():
        n.gamma.uniform_(0.5, 1.5); n.beta.normal_()
        x = torch.randn(2, 7, 32)
        return maxdiff(n(x), F.layer_norm(x, (32,), n.gamma, n.beta, n.eps))


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("mu = x.mean(dim=1, keepdim=True)", "mu = x.mean(dim=-1, keepdim=True)"),
             ("var = (x - mu).pow(2).mean(dim=1, keepdim=True)", "var = (x - mu).pow(2).mean(dim=-1, keepdim=True)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=ln_ref,
        note="hand-written norm takes mean/var over the time axis (dim=1) of [B,L,D]; ref = F.layer_norm over features",
        label=dict(expected=["layernorm-axis"], line_sub="mu = x.mean(dim=1, keepdim=True)",
                   also_subs=["var = (x - mu).pow(2).mean(dim=1, keepdim=True)"],
                   why="FeatureNorm (used as the encoder layers' LayerNorm) computes its statistics over dim=1, the time axis of [B, L, D], instead of the feature axis."),
    )
