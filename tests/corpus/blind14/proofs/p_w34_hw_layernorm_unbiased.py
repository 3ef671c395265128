from lib import *

NAME = "w34_hw_layernorm_unbiased"


def ln_ref(m, x):
    return F.layer_norm(x, (x.size(-1),), m.weight, m.bias, m.eps)


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("var = x.var(-1, keepdim=True)", "var = x.var(-1, keepdim=True, unbiased=False)")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 4, 120), lambda o, a, k: o[a[1] == 1]),
            "batch": (perturb(0, sample(0, 1), 4, 120), samp(0)),
        },
        ref=module_ref(lambda m: m.emb_norm, ln_ref),
        note="ref = the embedding LayerNorm against F.layer_norm with the same weight, bias and eps",
        label=dict(expected=["layernorm-variance"], also_ok_codes=[], line_sub="var = x.var(-1, keepdim=True)",
                   also_subs=[], consequence_codes=[],
                   why="Tensor.var defaults to the unbiased estimator (divides by d - 1). Layer normalization uses the biased variance (divide by d), as F.layer_norm and the ELECTRA checkpoints do; with d = 32 every normalized activation is off by a factor sqrt(31/32) in each of the 7 LayerNorms."),
    )
