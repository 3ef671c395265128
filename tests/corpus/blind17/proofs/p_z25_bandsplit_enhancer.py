from lib import *

NAME = "z25_bandsplit_enhancer"


def ln_ref(m, x):
    return F.layer_norm(x, (x.size(-1),), m.gamma, m.beta, m.eps)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("        mu = x.mean(dim=-2, keepdim=True)\n        var = (x - mu).pow(2).mean(dim=-2, keepdim=True)",
              "        mu = x.mean(dim=-1, keepdim=True)\n        var = (x - mu).pow(2).mean(dim=-1, keepdim=True)")],
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        ref=module_ref(lambda m: m.norm_k, ln_ref),
        label=dict(expected=["layernorm-axis"], line_sub="mu = x.mean(dim=-2, keepdim=True)",
                   also_subs=["var = (x - mu).pow(2).mean(dim=-2, keepdim=True)"],
                   why="The norm documented as per-(band, frame) layer norm takes its mean and variance over dim -2, the time axis of (B, K, T, N), so each band is normalised over the whole utterance instead of over its feature vector."),
    )
