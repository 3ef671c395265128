from lib import *

NAME = "z05_layoutlm_boxes"


def ln_ref(m, x):
    return F.layer_norm(x, (x.size(-1),), m.weight, m.bias, m.eps)


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("s = x.var(-1, keepdim=True)", "s = x.var(-1, keepdim=True, unbiased=False)")],
        checks={"padding": (perturb(0, where_eq(2, 0), 1, 120), real(2))},
        ref=module_ref(lambda m: m.embeddings.LayerNorm, ln_ref),
        label=dict(expected=["layernorm-variance"], line_sub="s = x.var(-1, keepdim=True)",
                   why="Tensor.var defaults to the unbiased (d-1) estimator, so the hand-written layer norm divides by a slightly larger standard deviation than LayerNorm and the outputs are scaled by sqrt((d-1)/d)."),
    )
