from lib import *

NAME = "u12_varlen_rope"


def each_document_alone(mod):
    model, args, kw = build(mod)
    ids, cu = args
    full = run(model, args, kw)
    worst = 0.0
    for i in range(cu.numel() - 1):
        s, e = int(cu[i]), int(cu[i + 1])
        alone = run(model, (ids[s:e], torch.tensor([0, e - s])), {})
        worst = max(worst, maxdiff(full[s:e], alone))
    return worst


def doc(i):
    def w(a, k):
        cu = get(a, k, 1)
        m = torch.zeros(get(a, k, 0).shape, dtype=torch.bool)
        m[int(cu[i]):int(cu[i + 1])] = True
        return m
    return w


def result():
    return prove(
        NAME, "correct",
        checks={
            "batch": (perturb(0, doc(1), 0, 64), lambda o, a, k: torch.cat([o[:5], o[12:]])),
            # inside document 2 (tokens 5..11): tokens after 8 must not reach tokens <= 8
            "causal": (perturb(0, lambda a, k: torch.arange(16) > 8, 0, 64), lambda o, a, k: o[:9]),
        },
        ref=each_document_alone,
        label=dict(expected=[], line_sub="cos, sin = self.cos[:N], self.sin[:N]",
                   why="Rotary phases follow the index in the packed stream instead of restarting per document; rotary attention depends only on the query-key offset and attention never crosses a cu_seqlens boundary, so each document's logits equal those of the document run alone (to float rounding)."),
    )
