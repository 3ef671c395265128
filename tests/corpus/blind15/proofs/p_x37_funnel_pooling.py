from lib import *

NAME = "x37_funnel_pooling"


def pool_ref(mod):
    """the masked pair pooling equals a per-pair average of the real tokens computed by hand"""
    torch.manual_seed(3)
    h = torch.randn(2, 6, 4)
    m = torch.tensor([[1, 1, 1, 1, 1, 0], [1, 1, 1, 0, 0, 0]]).bool()
    p, pm = mod.mean_pool_pairs(h, m)
    want = torch.stack([torch.stack([h[0, 0:2].mean(0), h[0, 2:4].mean(0), h[0, 4]]),
                        torch.stack([h[1, 0:2].mean(0), h[1, 2], torch.zeros(4)])])
    return maxdiff(p, want) + float((pm != torch.tensor([[1, 1, 1], [1, 1, 0]]).bool()).any())


def result():
    return prove(
        NAME, "correct",
        checks={
            "padding": (perturb(0, where_eq(1, 0), 2, 90), whole()),
            "batch": (perturb(0, both(sample(0, 1), lambda a, k: a[1] == 1), 2, 90), samp(0)),
        },
        ref=pool_ref,
        note="ref = the masked pair pooling against a hand-computed average of the real tokens of each pair",
        label=dict(line_sub="summed = (h * mask.unsqueeze(-1)).view(B, L // 2, 2, D).sum(2)",
                   why="The pooling zeroes padded tokens and divides by the number of real tokens in each pair, so a pair (real, pad) pools to the real token alone and a (pad, pad) pair to zero, marked as padding in the pooled mask; [CLS] is kept apart. The pool-query-only layer lets the 9 pooled queries attend to the 17 unpooled keys under the original key mask; SDPA's boolean mask is True = attend."),
    )
