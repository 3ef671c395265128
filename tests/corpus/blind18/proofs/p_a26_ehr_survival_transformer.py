from lib import *

NAME = "a26_ehr_survival_transformer"


def ln_ref(m, x):
    return F.layer_norm(x, (x.size(-1),), m.gamma, m.beta, m.eps)


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("var = x.var(-1, keepdim=True)", "var = x.var(-1, keepdim=True, unbiased=False)")],
        checks={"batch": (perturb(0, sample(0, 1), 0, 80), samp(0))},
        ref=refs(module_ref(lambda m: m.layers[0].norm1, ln_ref), module_ref(lambda m: m.norm, ln_ref)),
        label=dict(expected=["layernorm-variance"], line_sub="var = x.var(-1, keepdim=True)",
                   why="Tensor.var defaults to the unbiased (d-1) estimator, so this hand-written LayerNorm divides by a variance that is d/(d-1) too large and does not match nn.LayerNorm, whose weights it is meant to stand in for."),
    )
