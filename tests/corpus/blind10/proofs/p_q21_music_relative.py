from lib import *

NAME = "q21_music_relative"


def skew_ref(mod):
    # skewed QE[i, j] must equal q_i . E_rel(j - i) for j <= i
    torch.manual_seed(3)
    a = mod.RelativeGlobalAttention()
    L = 7
    q = torch.randn(1, 1, L, 8)
    e = a.E[a.max_seq - L:]
    QE = torch.einsum("bhld,md->bhlm", q, e)
    lengths = torch.arange(L - 1, -1, -1)
    keep = (torch.arange(L)[:, None] >= lengths[None, :]).float()
    S = a._skewing(QE * keep)[0, 0]
    worst = 0.0
    for i in range(L):
        for j in range(i + 1):
            ref = (q[0, 0, i] * e[L - 1 - (i - j)]).sum()
            worst = max(worst, abs((S[i, j] - ref).item()))
    return worst


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 48), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 48), samp(0)),
        },
        ref=skew_ref,
        note="relative logits via pad/reshape skew match the explicit q_i.E[L-1-(i-j)] loop; causal triu mask -1e9",
        label=dict(expected=[], line_sub="Srel = self._skewing(QE * keep)",
                   also_subs=["future = torch.triu(torch.ones(L, L, dtype=torch.bool), 1)"],
                   why="Skewing trick produces relative logits aligned with absolute (i, j) (checked against a loop); the causal mask hides j > i only."),
    )
