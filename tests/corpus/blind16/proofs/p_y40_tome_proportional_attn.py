from lib import *

NAME = "y40_tome_proportional_attn"


def ref(mod):
    """class token stays at index 0 through every merge and sizes always sum to the token count"""
    model, args, kw = build(mod)
    sizes = []
    hooks = [b.register_forward_hook(lambda m, i, o: sizes.append(o[1])) for b in model.blocks]
    run(model, args, kw)
    for h in hooks:
        h.remove()
    n0 = model.pos_embed.size(1)
    bad = sum(abs(float(s.sum(1).max()) - n0) + abs(float(s[:, 0].max()) - 1.0) for s in sizes)
    return bad


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 0)), samp(1)),
                "batch2": (perturb(0, sample(0, 2)), samp(0))},
        ref=ref,
        note="ref: total size is conserved and the class token is never merged",
        label=dict(line_sub="attn = attn + size.log()[:, None, None, :, 0]",
                   why="Proportional attention adds log(size) of each key, broadcast along the key axis, so a merged token weighs as much as the tokens it replaced; merging is deterministic (alternate split, class token protected) and done per sample, with a size-weighted average."),
    )
