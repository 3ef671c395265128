from lib import *

NAME = "y22_int8_kv_fake_quant"


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("scale = x.detach().abs().amax().clamp(min=1e-8) / 127.0",
              "scale = x.detach().abs().amax(dim=-1, keepdim=True).clamp(min=1e-8) / 127.0")],
        checks={"batch": (perturb(0, sample(0, 2), 0, 128), samp(0)),
                "causal": (perturb(0, after(0, 12), 0, 128), upto(12))},
        label=dict(expected=["batch-leak"], line_sub="scale = x.detach().abs().amax().clamp(min=1e-8) / 127.0",
                   consequence_codes=["causal-leak"],
                   why="The int8 scale is a single absmax over the whole (B, H, T, d) tensor, so one sequence's largest key or value sets the rounding grid of every other sequence (and of earlier positions): outputs depend on the rest of the batch and on future tokens."),
    )
