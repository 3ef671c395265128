from lib import *

NAME = "v15_complex_rope_heads"

def reference_rotary(q, k, freqs_cis):
    # real-valued rotary on interleaved pairs, angle = position * freq; q, k are (B, H, T, dh)
    T, dh = q.shape[2], q.shape[3]
    ang = torch.angle(freqs_cis[:T])                                  # (T, dh/2)
    cos, sin = ang.cos(), ang.sin()

    def rot(x):
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)

    return rot(q), rot(k)


def ref(mod):
    model, args, kw = build(mod)
    mine = run(model, args, kw)
    mod.apply_rotary = reference_rotary
    theirs = run(model, args, kw)
    return maxdiff(mine, theirs)


def result():
    return prove(
        NAME, "buggy", harm="axis",
        fix=[("freqs = freqs_cis[: q.shape[1]].unsqueeze(1)", "freqs = freqs_cis[: q.shape[2]]")],
        checks={
            "causal": (perturb(0, after(0, 5), 0, 64), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 64), samp(0)),
        },
        ref=ref,
        note="ref = the same model with a real-valued rotary written independently",
        label=dict(expected=["positional-axis"], line_sub="freqs = freqs_cis[: q.shape[1]].unsqueeze(1)",
                   why="q and k are already (B, H, T, head_dim) when they are rotated, so q.shape[1] is the number of heads: the table is cut to H rows and unsqueezed to (H, 1, head_dim/2), which broadcasts over the head axis and is constant along the sequence. Every head gets one fixed rotation for all its tokens, q and k rotations cancel, and the model has no position information."),
    )
