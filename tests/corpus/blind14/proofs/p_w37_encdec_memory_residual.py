from lib import *

NAME = "w37_encdec_memory_residual"


def other_src_len(mod):
    """a decoder must accept a source of a different length than the target"""
    model, args, kw = build(mod)
    src, pad, tgt = args
    try:
        run(model, (src[:, :8], pad[:, :8], tgt), {})
        return 0.0
    except RuntimeError:
        return float("inf")


def result():
    return prove(
        NAME, "buggy", harm="padding",
        fix=[("y = enc_out + self.cross_attn(", "y = y + self.cross_attn(")],
        checks={
            "padding": (perturb(0, lambda a, k: a[1], 1, 100), whole()),
            "causal": (perturb(2, after(2, 4), 1, 100), upto(4)),
            "batch": (chain(perturb(0, sample(0, 1), 1, 100), perturb(2, sample(2, 1), 1, 100)), samp(0)),
        },
        ref=other_src_len,
        note="ref = inf when a source of another length (8) than the target (10) makes the forward pass fail",
        label=dict(expected=["axis-mismatch"], also_ok_codes=["padding-leak"],
                   line_sub="y = enc_out + self.cross_attn(", also_subs=[], consequence_codes=[],
                   why="The cross-attention residual adds the encoder output instead of the decoder stream: enc_out is indexed by source positions, y by target positions, and the two only line up because both are 10 long in this batch. The decoder state is thrown away after each self-attention, target position t receives source position t's encoding (the padded source positions included, so the logits change with pad-token content), and any source of another length fails."),
    )
