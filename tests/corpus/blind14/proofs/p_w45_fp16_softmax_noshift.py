from lib import *

NAME = "w45_fp16_softmax_noshift"


FIX = [("weights = torch.exp(scores)", "weights = torch.exp(scores - scores.amax(dim=-1, keepdim=True))")]


def fixed_vs_fp32():
    """the fixed fp16 model agrees with the same weights in float32 up to fp16 rounding"""
    model, args, kw = build(load(NAME, FIX))
    o16 = run(model, args, kw)
    o32 = run(model.float(), args, kw)
    return maxdiff(o16, o32)


def result():
    r = prove(
        NAME, "buggy", harm="nan",
        fix=FIX,
        checks={"batch": (perturb(0, sample(0, 1)), samp(0))},
        note="the buggy fp16 forward returns NaN logits; the fixed one is finite",
        label=dict(expected=["unstable-softmax"], also_ok_codes=["nan"], line_sub="weights = torch.exp(scores)",
                   also_subs=[], consequence_codes=[],
                   why="The hand-written softmax exponentiates the raw scores. In float16, exp overflows to inf for scores above about 11, which sharp trained query/key projections reach; inf / inf is NaN and the class logits become NaN. Subtracting the row maximum first (or calling softmax) keeps every exponent <= 0."),
    )
    r["fixed_vs_fp32_diff"] = rnd(fixed_vs_fp32())
    if not r["fixed_vs_fp32_diff"] < 1e-2:
        r["ok"] = False
        r.setdefault("failures", []).append("fixed fp16 far from fp32")
    return r
