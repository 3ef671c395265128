from lib import *

NAME = "t13_mmdit_joint"


def unpadded(mod):
    """each sample with its prompt cut to the real tokens must give the same image output"""
    model, args, kw = build(mod)
    lat, t, txt, m = args
    out = run(model, args, kw)
    worst = 0.0
    for i in range(3):
        n = int(m[i].sum())
        o = run(model, (lat[i:i + 1], t[i:i + 1], txt[i:i + 1, :n], m[i:i + 1, :n]), {})
        worst = max(worst, maxdiff(o[0], out[i]))
    return worst


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("""    attn = attn.softmax(dim=-1)
    attn = attn * key_keep[:, None, None, :]
""", """    attn = attn.masked_fill(key_keep[:, None, None, :] == 0, float("-inf"))
    attn = attn.softmax(dim=-1)
""")],
        checks={
            "padding": (perturb(2, where_eq(3, 0)), whole()),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1))), samp(0)),
        },
        ref=unpadded,
        note="weights of padded prompt tokens are zeroed after the softmax; rows sum to < 1, unlike the unpadded prompt",
        label=dict(expected=["mask-after-softmax"], line_sub="attn = attn * key_keep[:, None, None, :]",
                   why="The text padding mask multiplies the normalized weights, so each row's visible weights sum to less than 1 and the output depends on how much padding the prompt had (differs from the same prompt unpadded)."),
    )
