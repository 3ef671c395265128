from lib import *

NAME = "w13_dual_encoder_inbatch"

pick = lambda o: torch.cat([o[1], o[2]], dim=-1)


def scores_ref(mod):
    model, args, kw = build(mod)
    s, q, p = run(model, args, kw, lambda o: o)
    return maxdiff(s, q @ p.T / model.temperature)


def cut_ref(mod):
    """each query / passage cut to its real tokens and encoded alone gives the same embedding"""
    model, args, kw = build(mod)
    s, q, p = run(model, args, kw, lambda o: o)
    worst = 0.0
    for i in range(q.size(0)):
        qi = args[0][i:i + 1, : int(args[0][i].ne(0).sum())]
        pi = args[1][i:i + 1, : int(args[1][i].ne(0).sum())]
        _, q1, p1 = run(model, (qi, pi), {}, lambda o: o)
        worst = max(worst, maxdiff(q[i:i + 1], q1), maxdiff(p[i:i + 1], p1))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (chain(perturb(0, sample(0, 1), 1, 120), perturb(1, sample(1, 1), 1, 120)), samp(0)),
        },
        pick=pick,
        ref=refs(scores_ref, cut_ref),
        note="checks on the per-sample embeddings; ref = the score matrix is exactly q @ p.T / temperature, and each query/passage cut to its real tokens and encoded alone gives the same embedding (pad mask is derived from the ids)",
        label=dict(line_sub="scores = q @ p.T / self.temperature",
                   why="Each query and passage is encoded on its own (padding masked with src_key_padding_mask, masked mean pooling, per-row L2 normalization). The (Bq, Bp) score matrix compares every query with every passage on purpose: that coupling across samples is the in-batch-negatives objective, not a leak; the embeddings themselves never depend on other samples."),
    )
