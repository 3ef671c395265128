from lib import *

NAME = "x42_cosformer_causal"


def quadratic_ref(att, x):
    """the same attention written as an explicit masked (N x N) similarity matrix"""
    B, N, D = x.shape
    q, k, v = att.qkv(x).view(B, N, 3, att.h, -1).permute(2, 0, 3, 1, 4)
    q, k = F.relu(q), F.relu(k)
    idx = math.pi / 2 * torch.arange(1, N + 1, dtype=x.dtype) / att.max_len
    sim = (q @ k.transpose(-1, -2)) * torch.cos(idx[:, None] - idx[None, :])
    sim = sim * torch.tril(torch.ones(N, N))
    out = (sim @ v) / sim.sum(-1, keepdim=True).clamp_min(att.eps)
    return att.out(out.transpose(1, 2).reshape(B, N, D))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 8), 0, 110), upto(8)),
            "batch": (perturb(0, sample(0, 1), 0, 110), samp(0)),
        },
        ref=refs(module_ref(lambda m: m.blocks[0].attn, quadratic_ref), module_ref(lambda m: m.blocks[1].attn, quadratic_ref)),
        note="ref = each attention against the quadratic form: relu(q).relu(k) cos(pi/2 (i - j)/M), lower-triangular, row-normalized",
        label=dict(line_sub='kv = torch.einsum("bhnd,bhne->bhnde", k_, v).cumsum(dim=2)',
                   why="There is no softmax and no mask: causality comes from the prefix sums (cumsum over the sequence axis), so position n combines k_j v_j^T and k_j for j <= n only. sin/cos re-weighting decomposes cos(pi/2 (i - j)/M) into two feature halves; the denominator is clamped with eps."),
    )
