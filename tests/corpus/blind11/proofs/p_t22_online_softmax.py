from lib import *

NAME = "t22_online_softmax"


def against_sdpa(mod):
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(2, 3, 14, 8, generator=g) * 3 for _ in range(3))
    return maxdiff(mod.flash_attention(q, k, v), F.scaled_dot_product_attention(q, k, v, is_causal=True))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 6), 0, 50), upto(6)),
            "batch": (perturb(0, sample(0, 1), 0, 50), samp(0)),
        },
        ref=against_sdpa,
        note="running max over keys, rescale of l and acc by exp(m_old - m_new), final divide",
        label=dict(expected=[], line_sub="m_new = torch.maximum(m, s.amax(dim=-1, keepdim=True))",
                   why="Online softmax over key blocks: the running max and sum are per query row over the key axis, previous partial sums are rescaled, fully masked blocks are handled; equals causal SDPA."),
    )
