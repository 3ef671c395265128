from lib import *

NAME = "w14_patchtst_revin_batch"


def stats_ref(mod):
    """RevIN statistics must be per series and per variable: shape (B, 1, C)"""
    model, args, kw = build(mod)
    run(model, args, kw)
    B, L, C = args[0].shape
    want = args[0].mean(dim=1, keepdim=True)
    m = model.revin.mean
    return maxdiff(m.expand(B, 1, C), want) if m.dim() == 3 else float("inf")


def result():
    return prove(
        NAME, "buggy", harm="batch",
        fix=[("dim2reduce = tuple(range(x.ndim - 1))", "dim2reduce = tuple(range(1, x.ndim - 1))")],
        checks={
            "batch": (perturb(0, sample(0, 1)), samp(0)),
        },
        ref=stats_ref,
        note="ref = RevIN's stored mean against each series' own mean over time",
        label=dict(expected=["batch-leak"], also_ok_codes=["layernorm-axis"],
                   line_sub="dim2reduce = tuple(range(x.ndim - 1))", also_subs=["self.mean = x.mean(dim=dim2reduce, keepdim=True).detach()", "self.stdev = torch.sqrt(x.var(dim=dim2reduce, keepdim=True, unbiased=False) + self.eps).detach()"], consequence_codes=[],
                   why="Reversible instance normalization takes each series' mean and standard deviation over its look-back window (dims (1,) of (B, L, C)). range(x.ndim - 1) gives (0, 1): the statistics are pooled over the batch as well, so every forecast (after denormalization too) depends on the other series in the batch."),
    )
