from lib import *

NAME = "u11_packed_pretraining"


def each_document_alone(mod):
    """every packed document must get the logits it gets as a row of its own"""
    model, args, kw = build(mod)
    ids, seg = args
    full = run(model, args, kw)
    worst = 0.0
    for b in range(ids.size(0)):
        for s in seg[b].unique().tolist():
            if s == 0:
                continue
            sel = seg[b] == s
            alone = run(model, (ids[b][sel][None], torch.ones(1, int(sel.sum()), dtype=torch.long)), {})
            worst = max(worst, maxdiff(full[b][sel], alone[0]))
    return worst


def first_doc(a, k):
    return get(a, k, 1) == 1


def result():
    return prove(
        NAME, "buggy", harm="numeric",
        fix=[("positions = torch.arange(T, device=input_ids.device).expand(B, T)",
              "positions = same_doc.tril().sum(-1) - 1")],
        checks={
            # the content of document 1 must not reach the later documents of its row
            "batch": (perturb(0, first_doc, 1, 64), lambda o, a, k: o[get(a, k, 1) > 1]),
            "causal": (perturb(0, after(0, 6), 1, 64), upto(6)),
        },
        ref=each_document_alone,
        note="positions run over the packed row: the second and third documents start at positions 5, 12 and 9 instead of 0",
        label=dict(expected=["positional-axis"], line_sub="positions = torch.arange(T, device=input_ids.device).expand(B, T)",
                   also_ok_codes=["batch-leak"],
                   why="The attention is block-diagonal per document, but the learned absolute positions count along the packed row instead of restarting at each document, so a document's logits depend on how long the documents before it are and differ from the document run alone."),
    )
