from lib import *

NAME = "u26_mla_absorbed_decode"


def single_prefill(mod):
    """decoding with the absorbed latent cache must give the logits of one full prefill"""
    model, args, kw = build(mod)
    ids = args[0]
    return maxdiff(run(model, args, kw), run(model, (ids, ids.size(1)), {}))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 50), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=single_prefill,
        label=dict(expected=[], line_sub="attn = (scores * self.scale).softmax(dim=-1)",
                   why="With W_uk absorbed the decode scores contract over d_c + d_rope = 20 features, but they equal the prefill's per-head q.k over d_nope + d_rope = 12, so 1/sqrt(12) is the right scale for both paths; the rotary key is shared across heads by design. Decoding reproduces a single prefill pass."),
    )
