from lib import *

NAME = "t34_cu_seqlens"


def docs_alone(mod):
    model, args, kw = build(mod)
    ids, cu = args
    out = run(model, args, kw)
    worst = 0.0
    for s, e in zip(cu[:-1].tolist(), cu[1:].tolist()):
        o = run(model, (ids[s:e], torch.tensor([0, e - s])), {})
        worst = max(worst, maxdiff(o, out[s:e]))
    return worst


def result():
    first_doc = lambda a, k: torch.arange(16) < 5
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("return torch.searchsorted(cu_seqlens, positions) - 1", "return torch.searchsorted(cu_seqlens, positions, right=True) - 1")],
        checks={
            # change document 0 only: documents 1 and 2 (tokens 5..15) must not move
            "batch": (perturb(0, first_doc, 0, 50), lambda o, a, k: o[5:]),
            "causal": (perturb(0, lambda a, k: torch.arange(16) > 8, 0, 50), lambda o, a, k: o[:9]),
        },
        ref=docs_alone,
        note="searchsorted without right=True puts each document's first token in the previous document",
        label=dict(expected=["batch-leak"], line_sub="return torch.searchsorted(cu_seqlens, positions) - 1",
                   also_subs=["same_doc = doc[:, None] == doc[None, :]"],
                   why="With left-side searchsorted the token at a boundary cu_seqlens[i] gets document id i-1: the first token of each packed document attends to the previous document (and its outputs feed the rest of its own document)."),
    )
