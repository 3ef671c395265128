from lib import *

NAME = "a25_retain_reverse_time"


def pad_visits(args, kw):
    return torch.arange(args[0].size(1)).unsqueeze(0) >= args[1].unsqueeze(1)


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, pad_visits), whole()),
            "batch": (perturb(0, sample(0, 0)), samp(1)),
        },
        ref=refs(solo(1, n=6, pooled=True), solo(2, n=3, pooled=True)),
        label=dict(line_sub="idx = torch.where(idx >= 0, idx, t)",
                   why="Only each patient's real visits are reversed (padding stays at the end), so the reverse-time GRUs reach every real visit before any padding; the visit-level softmax masks padded visits with -inf and every patient has at least one visit."),
    )
