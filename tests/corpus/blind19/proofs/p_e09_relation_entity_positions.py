from lib import *

NAME = "e09_relation_entity_positions"


def ln_ref(m, x):
    return F.layer_norm(x, (x.size(-1),), m.gamma, m.beta, m.eps)


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("var = x.var(-1, keepdim=True)", "var = x.var(-1, keepdim=True, unbiased=False)")],
        ref=module_ref(lambda m: m.layers[0].norm1, ln_ref),
        note="ref: the first hand-written LayerNorm vs F.layer_norm on the same input",
        label=dict(expected=["layernorm-variance"], line_sub="var = x.var(-1, keepdim=True)",
                   why="Tensor.var defaults to the unbiased (d-1) estimator, so the hand-written LayerNorm divides by a slightly larger deviation than nn.LayerNorm and the outputs differ from a true layer norm."),
    )
