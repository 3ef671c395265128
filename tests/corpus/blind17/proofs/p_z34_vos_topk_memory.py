from lib import *

NAME = "z34_vos_topk_memory"


def dense_ref(mod):
    """top-k softmax == softmax over the memory axis with everything outside the top-k at -inf"""
    torch.manual_seed(1)
    a = torch.randn(2, 30, 7) * 50
    got = mod.topk_softmax(a, 6)
    kth = a.topk(6, dim=1).values[:, -1:]
    want = a.masked_fill(a < kth, float("-inf")).softmax(dim=1)
    return maxdiff(got, want)


def result():
    return prove(
        NAME, "correct",
        checks={"batch": (perturb(1, sample(1, 0)), samp(1))},
        ref=refs(dense_ref, solo(2)),
        label=dict(line_sub="values = torch.exp(values - values[:, :1])",
                   why="topk returns values sorted descending, so values[:, :1] is the row maximum over the memory axis and the hand-written softmax is stabilised; the memory-major (B, THW, HW) layout makes dim=1 the key axis, which both the softmax and the bmm with (B, Cv, THW) values contract."),
    )
