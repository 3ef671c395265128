from lib import *

NAME = "w38_encdec_hw_layernorm"

pads = lambda a, k: torch.arange(a[0].size(1))[None, :] >= a[1][:, None]


def ln_ref(m, x):
    return F.layer_norm(x, (x.size(-1),), m.gamma, m.beta, m.eps)


def other_len(mod):
    model, args, kw = build(mod)
    frames, lens, tgt = args
    a = run(model, args, kw)[:, :7]
    b = run(model, (frames, lens, tgt[:, :7]), {})
    return maxdiff(a, b)


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pads), whole()),
            "causal": (perturb(2, after(2, 4), 0, 90), upto(4)),
            "batch": (chain(perturb(0, sample(0, 1)), perturb(2, sample(2, 1), 0, 90)), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.norm, ln_ref), other_len),
        note="ref = the hand LayerNorm against F.layer_norm, and a shorter target (7 tokens) gives the first 7 positions' logits unchanged",
        label=dict(line_sub="sigma2 = ((x - mu) ** 2).mean(dim=-1, keepdim=True)",
                   why="The LayerNorm uses the biased variance over the features with eps inside the square root; the key mask hides padded frames along the key axis only, the decoder mask is lower-triangular with the diagonal, and every residual adds the decoder stream to its own sublayer output. Source and target happen to have equal lengths, which the code never relies on."),
    )
