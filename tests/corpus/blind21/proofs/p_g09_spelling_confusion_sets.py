from lib import *

NAME = "g09_spelling_confusion_sets"
FIX = [("w = torch.exp(logits)", "w = torch.exp(logits - logits.amax(-1, keepdim=True))")]


def probs_ref(mod):
    """the candidate distribution must equal torch.softmax over the valid candidates"""
    model, args, kw = build(mod)
    got = {}
    orig = model.candidate_probs

    def spy(logits, valid):
        got["in"] = (logits, valid)
        return orig(logits, valid)

    model.candidate_probs = spy
    out = run(model, args, kw)
    logits, valid = got["in"]
    return maxdiff(out, torch.softmax(logits.masked_fill(~valid, float("-inf")), -1))


def result():
    return prove(
        NAME, "buggy", harm="nan", fix=FIX,
        checks={
            "batch": (chain(perturb(0, sample(0, 0), 1, 500), perturb(1, sample(1, 0), 1, 500)), samp(1)),
        },
        ref=probs_ref,
        note="logit scale 100 and cos(typed, typed) = 1 put logits above 88.7, where float32 exp overflows",
        label=dict(expected=["unstable-softmax", "nan"], line_sub="w = torch.exp(logits)",
                   also_subs=["return w / w.sum(-1, keepdim=True)"], also_ok_codes=[], consequence_codes=[],
                   why="The candidate softmax is written by hand without subtracting the row maximum; with the logit scale at its cap of 100 and slot 0 being the typed word itself (cosine 1), logits exceed 88.7, exp overflows to inf and inf/inf gives NaN probabilities and NaN detection logits. Subtracting the row max (or torch.softmax) fixes it."),
    )
