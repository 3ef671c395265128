from lib import *

NAME = "q30_transformer_xl"


def shift_ref(mod):
    # after _rel_shift, entry (i, j) must use relative distance (i + mlen - j) for j <= i + mlen
    q, k = 5, 8
    mlen = k - q
    x = torch.arange(k, dtype=torch.float).expand(1, 1, q, k)  # column c holds pos_seq index c, distance k-1-c
    s = mod.RelPartialLearnableMultiHeadAttn._rel_shift(x.clone())[0, 0]
    worst = 0.0
    for i in range(q):
        for j in range(i + mlen + 1):
            want_dist = i + mlen - j
            worst = max(worst, abs((k - 1 - s[i, j].item()) - want_dist))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 3), 0, 50), upto(3)),
            "batch": (chain(perturb(0, sample(0, 1), 0, 50), perturb((1, 0), sample((1, 0), 1))), samp(0)),
        },
        ref=shift_ref,
        note="memory of 6 + segment of 8; mask triu(diagonal=1+mlen); rel_shift gives distance i+mlen-j (checked)",
        label=dict(expected=[], line_sub="dec_attn_mask = torch.triu(torch.ones(qlen, klen, dtype=torch.bool), diagonal=1 + mlen)",
                   why="With mlen memory slots query i sits at absolute key index i+mlen, so masking j > i+mlen keeps the diagonal and the whole memory; the relative shift aligns distances (checked)."),
    )
