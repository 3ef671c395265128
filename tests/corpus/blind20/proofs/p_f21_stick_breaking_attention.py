from lib import *

NAME = "f21_stick_breaking_attention"


def sb_ref(m, x):
    """stick-breaking weights as explicit products: A_ij = b_ij * prod_{j<k<=i} (1 - b_ik), j <= i"""
    B, T, D = x.shape
    q, k, v = m.qkv(x).view(B, T, 3, m.heads, m.dh).permute(2, 0, 3, 1, 4)
    beta = torch.sigmoid(q @ k.transpose(-1, -2) / math.sqrt(m.dh))
    A = torch.zeros_like(beta)
    for i in range(T):
        for j in range(i + 1):
            A[..., i, j] = beta[..., i, j] * torch.prod(1 - beta[..., i, j + 1:i + 1], dim=-1)
    return m.out((A @ v).transpose(1, 2).reshape(B, T, D))


def result():
    return prove(
        NAME, "correct",
        checks={
            "causal": (perturb(0, after(0, 5), 0, 128), upto(5)),
            "batch": (perturb(0, sample(0, 1), 0, 128), samp(0)),
        },
        ref=module_ref(lambda m: m.blocks[0].attn, sb_ref),
        note="ref = first layer vs the stick-breaking weights written as explicit products",
        label=dict(line_sub="later = log_keep.flip(-1).cumsum(-1).flip(-1) - log_keep",
                   why="The reverse cumulative sum over keys minus the own term is sum_{k>j} log(1-beta_ik), and future keys were zero-filled first, so it is exactly the stick-breaking product over (j, i]; future weights are -inf in log space. Rows summing to less than one is the design of stick-breaking attention, not a masking error."),
    )
