from lib import *

NAME = "t23_ring_merge"


def against_sdpa(mod):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 3, 16, 8, generator=g) * 2 for _ in range(3))
    return maxdiff(mod.ring_attention(q, k, v, 4), F.scaled_dot_product_attention(q, k, v, is_causal=True))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 50), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=against_sdpa,
        note="partial softmaxes merged with logaddexp weights; the diagonal shard is causal, later shards skipped",
        label=dict(expected=[], line_sub="new_lse = torch.logaddexp(lse, block_lse)",
                   why="Ring attention merges partial results with their log-sum-exp (exact softmax over the union of key shards); causality by skipping later shards and a triu(1) mask on the diagonal shard; equals causal SDPA."),
    )
