from lib import *

NAME = "f04_selective_attention"


def selective_ref(m, x):
    """F[i, j] = sum over earlier queries k < i of relu(logit_head0[k, j]), for 0 < j < k; subtract, causal softmax"""
    B, T, D = x.shape
    q, k, v = m.qkv(x).view(B, T, 3, m.heads, m.dh).permute(2, 0, 3, 1, 4)
    l = q @ k.transpose(-1, -2) / math.sqrt(m.dh)
    Fs = torch.zeros(B, T, T)
    for i in range(T):
        for j in range(1, T):
            for kk in range(j + 1, i):
                Fs[:, i, j] += torch.relu(l[:, 0, kk, j])
    l = l - Fs[:, None]
    fut = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)
    w = l.masked_fill(fut, float("-inf")).softmax(-1)
    return m.out((w @ v).transpose(1, 2).reshape(B, T, D))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 2, 128), upto(7)),
            "batch": (perturb(0, both(sample(0, 1), after(0, 0)), 2, 128), samp(0)),
        },
        ref=module_ref(lambda m: m.blocks[0].attn, selective_ref),
        note="ref = first layer vs selective attention with F written as explicit sums over earlier queries",
        label=dict(line_sub="Fsel = S.cumsum(dim=-2)",
                   why="Selective attention accumulates the selections of earlier tokens along the query axis by design; the selection matrix is causal (future and self zeroed, <bos> never masked) and shifted down one query before the cumsum, so F[i, j] only uses queries k < i and keys j < k, and the real softmax is over keys with the causal mask."),
    )
