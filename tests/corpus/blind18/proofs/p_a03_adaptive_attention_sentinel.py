from lib import *

NAME = "a03_adaptive_attention_sentinel"


def ref(mod):
    """the (k+1) weights of each step sum to one and the visual part is what multiplies V"""
    model, args, kw = build(mod)
    att = model.attention
    out = []
    h = att.register_forward_hook(lambda m, i, o: out.append((i, o)))
    run(model, args, kw)
    h.remove()
    worst = 0.0
    for (V, hh, s), (c_hat, a) in out:
        worst = max(worst, (a.sum(1) - 1).abs().max().item())
        c = torch.einsum("bk,bkd->bd", a[:, :-1], V) + a[:, -1:] * s
        worst = max(worst, maxdiff(c, c_hat))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(1, after(1, 5), 0, 120), upto(5)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(1, sample(1, 1), 0, 120)), samp(0)),
        },
        ref=ref,
        label=dict(line_sub="alpha_hat = F.softmax(torch.cat([z, z_s], dim=1), dim=1)",
                   why="The softmax runs over the k regions plus the sentinel by design (dim=1 of a (B, k+1) score table is the candidate axis); the sentinel weight beta gates between the visual context and the sentinel, and the caption decoder is a left-to-right LSTM."),
    )
