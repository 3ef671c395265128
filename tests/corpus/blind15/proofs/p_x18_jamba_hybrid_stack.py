from lib import *

NAME = "x18_jamba_hybrid_stack"


def prefix_ref(mod):
    """running only the first 9 tokens gives the same logits there (a decoder reads no future)"""
    model, args, kw = build(mod)
    full = run(model, args, kw)
    part = run(model, (args[0][:, :9],), {})
    return maxdiff(full[:, :9], part)


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 90), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 90), samp(0)),
        },
        ref=prefix_ref,
        note="ref = the logits of a 9-token prefix run alone",
        label=dict(line_sub="u = F.silu(self.conv(u.transpose(1, 2))[..., :T].transpose(1, 2))",
                   why="The depthwise convolution pads kernel-1 frames on both sides and keeps the first T outputs, so output t reads inputs t-3..t only (a causal convolution); the selective scan runs forward in time; the attention layer repeats each of the 2 KV heads for its 2 query heads (repeat_interleave, query head h uses KV head h // 2) and uses is_causal. No positional embedding is needed."),
    )
