from lib import *

NAME = "f19_multi_token_attention"


def mta_ref(m, x):
    """paper formula written as explicit sums: logit(i, j) = sum_{a, b} w[a, b] * s(i - (c_q-1) + a, j - c_k//2 + b),
    where s is the scaled q.k logit and counts only when its key is not after its query; keys j > i get -inf"""
    B, T, D = x.shape
    H, dh = m.heads, m.dh
    q, k, v = m.qkv(x).view(B, T, 3, H, dh).permute(2, 0, 3, 1, 4)
    s = q @ k.transpose(-1, -2) / math.sqrt(dh)
    w = m.kq_kernel[:, 0]
    logit = torch.full((B, H, T, T), float("-inf"))
    for i in range(T):
        for j in range(i + 1):
            acc = torch.zeros(B, H)
            for a in range(m.c_q):
                for b in range(m.c_k):
                    ii, jj = i - (m.c_q - 1) + a, j - m.c_k // 2 + b
                    if 0 <= ii < T and 0 <= jj < T and jj <= ii:
                        acc = acc + w[:, a, b] * s[:, :, ii, jj]
            logit[:, :, i, j] = acc
    o = (logit.softmax(-1) @ v).transpose(1, 2).reshape(B * T, D)
    return m.out(m.head_norm(o).view(B, T, D))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 7), 0, 160), upto(7)),
            "batch": (perturb(0, sample(0, 1), 0, 160), samp(0)),
        },
        ref=module_ref(lambda m: m.blocks[0].attn, mta_ref),
        note="ref = first MTA layer vs the key-query convolution written as explicit causal sums",
        label=dict(line_sub="scores = scores.masked_fill(future, 0.0)",
                   why="Zero-filling the future logits is MTA's Mask_0: it only removes future entries from the convolution sums (a zero adds nothing), and the real causal mask is applied with -inf after the convolution; with the query-side kernel padded on top only, no output can read a later token."),
    )
