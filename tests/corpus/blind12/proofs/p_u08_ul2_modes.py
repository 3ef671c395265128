from lib import *

NAME = "u08_ul2_modes"


def s_mode_causal(mod):
    """the S-mode row (sample 1) is a plain causal LM from position 1 on: positions <= 2 ignore the rest"""
    model, args, kw = build(mod)
    o1 = run(model, args, kw)
    a2, k2 = perturb(0, both(sample(0, 1), after(0, 2)), 3, 80)(clone(args), clone(kw))
    o2 = run(model, a2, k2)
    return maxdiff(o1[1, :3], o2[1, :3])


def result():
    # t = 8 is at or past every input prefix (6, 4, 8): positions <= 8 must ignore later tokens
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 8), 3, 80), upto(8)),
            "batch": (perturb(0, sample(0, 1), 3, 80), samp(0)),
        },
        ref=s_mode_causal,
        label=dict(expected=[], line_sub="allowed = (k <= q) | (k < prefix[:, None, None])",
                   why="A per-example prefix-LM mask: keys inside the example's bidirectional prefix are visible to all queries, the rest is causal; for S mode the prefix is the mode token only. The prefix being bidirectional is by design (UL2's non-causal inputs); no target position sees a later position."),
    )
