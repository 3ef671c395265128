from lib import *

NAME = "t16_gemma_softcap"


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 4), 1, 64), upto_real(4, 1)),
            "padding": (perturb(0, where_eq(1, 0), 1, 64), real(1)),
            "batch": (perturb(0, sample(0, 1), 1, 64), samp(0)),
        },
        ref=solo(1, n=9),
        note="scaling by query_pre_attn_scalar**-0.5 (12, not head_dim 16) is Gemma-2-27B's config; tanh soft-capping before the mask",
        label=dict(expected=[], line_sub="self.scaling = cfg.query_pre_attn_scalar ** -0.5",
                   why="Gemma-2 scales queries by query_pre_attn_scalar**-0.5 (set to hidden/heads, deliberately not head_dim), soft-caps the logits with tanh before adding the causal/padding/sliding-window mask (finfo.min); every invariant holds."),
    )
