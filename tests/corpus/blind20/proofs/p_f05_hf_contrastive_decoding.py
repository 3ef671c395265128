from lib import *

NAME = "f05_hf_contrastive_decoding"


def cd_ref(mod):
    """scores vs an independent CD-beta computation from the two models' logits (per sample, unpadded)"""
    model, args, kw = build(mod)
    ids, mask = args
    full = run(model, args, kw)
    worst = 0.0
    with torch.no_grad():
        for b in range(ids.size(0)):
            n = int(mask[b].sum())
            x = ids[b:b + 1, :n]
            pe = torch.softmax(model.expert(input_ids=x).logits.float(), -1)
            pa = torch.softmax(model.amateur(input_ids=x).logits.float(), -1)
            keep = pe >= 0.1 * pe.max(-1, keepdim=True).values
            want = 1.5 * pe.log() - 0.5 * pa.log()
            got = full[b:b + 1, :n]
            if not torch.equal(got > torch.finfo(got.dtype).min, keep):
                return float("inf")
            worst = max(worst, maxdiff(got[keep], want[keep]))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 3), 3, 128), upto(3)),
            "padding": (perturb(0, where_eq(1, 0), 3, 128), real(1)),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1] == 1), 3, 128), samp(0)),
        },
        ref=cd_ref,
        note="ref = plausibility set and CD-beta scores recomputed per prompt without padding",
        label=dict(line_sub="return scores.masked_fill(lp_exp < cutoff, torch.finfo(scores.dtype).min)",
                   why="This fill is over the vocabulary of next-token scores (the adaptive plausibility constraint of contrastive decoding), not over attention keys; both LMs get the right-padding attention mask, and the scores at real positions are exactly CD-beta."),
    )
