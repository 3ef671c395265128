from lib import *

NAME = "u24_beam_kv_cache"
scores = lambda o: o[0]


def greedy_check(mod):
    """beam 0's score equals the LM's own log-probability of beam 0's tokens, recomputed without cache"""
    model, args, kw = build(mod)
    with torch.no_grad():
        sc, seqs = model(*args)
        worst = 0.0
        for b in range(args[0].size(0)):
            full = torch.cat([args[0][b], seqs[b, 0]])[None]
            P = args[0].size(1)
            lp = 0.0
            for t in range(seqs.size(-1)):
                logits, _ = model.lm(full[:, : P + t])
                lp = lp + F.log_softmax(logits, -1)[0, full[0, P + t]]
            worst = max(worst, abs(float(lp) - float(sc[b, 0])))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(0, sample(0, 1), 0, 30), lambda o, a, k: o[[0, 2]])},
        pick=scores,
        ref=refs(solo(1, pick=scores), greedy_check),
        label=dict(expected=[], line_sub="rows = (beam + offsets).view(-1)",
                   why="Cache rows are gathered with the sample offset b*K added to the chosen beam, so a sample's beams only copy rows of that same sample; coupling among the K beams of one sample is what beam search is. Each sample's beam scores equal the sample searched alone, and the best score equals the log-probability recomputed without a cache."),
    )
