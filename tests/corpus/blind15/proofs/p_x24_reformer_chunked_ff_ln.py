from lib import *

NAME = "x24_reformer_chunked_ff_ln"


def ln_ref(m, x):
    return F.layer_norm(x, (x.size(-1),), m.a_2, m.b_2, m.eps)


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("std = x.std(-1, keepdim=True)\n        return self.a_2 * (x - mean) / (std + self.eps) + self.b_2",
              "var = x.var(-1, keepdim=True, unbiased=False)\n        return self.a_2 * (x - mean) / torch.sqrt(var + self.eps) + self.b_2")],
        checks={
            "padding": (perturb(0, where_eq(1, 0), 1, 200), whole()),
            "batch": (perturb(0, sample(0, 1), 1, 200), samp(0)),
        },
        ref=module_ref(lambda m: m.blocks[0].norm_f, ln_ref),
        note="ref = the first LayerNorm against F.layer_norm with the same weight, bias and eps",
        label=dict(expected=["layernorm-variance"], also_ok_codes=[], line_sub="std = x.std(-1, keepdim=True)",
                   also_subs=["return self.a_2 * (x - mean) / (std + self.eps) + self.b_2"], consequence_codes=[],
                   why="Tensor.std is the unbiased (d - 1) estimator and eps is added to the standard deviation outside the square root. Layer normalization divides by sqrt(biased variance + eps); with d = 32 every normalized activation is off by a factor sqrt(31/32) in all 7 LayerNorms (the final one with d = 64), so the block outputs differ from the LayerNorm the architecture specifies."),
    )
