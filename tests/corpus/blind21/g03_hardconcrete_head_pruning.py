"""Intent classifier with prunable attention heads (L0 hard-concrete gates, Louizos et al. 2018).

Every head's output is multiplied by a gate z_h in [0, 1] drawn from a stretched hard-concrete
distribution; the expected L0 norm of the gates is added to the loss. After pruning, the gates
are frozen (requires_grad_(False)) and heads with z_h == 0 can be removed.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class HardConcreteGate(nn.Module):
    def __init__(self, n, init_keep=0.9, beta=2 / 3, left=-0.1, right=1.1):
        super().__init__()
        self.beta, self.left, self.right = beta, left, right
        self.log_alpha = nn.Parameter(torch.full((n,), math.log(init_keep / (1 - init_keep))) + 0.5 * torch.randn(n))

    def sample_s(self):
        u = torch.rand_like(self.log_alpha).clamp(1e-6, 1 - 1e-6)
        return torch.sigmoid((torch.log(u) - torch.log1p(-u) + self.log_alpha) / self.beta)

    def mean_s(self):
        return torch.sigmoid(self.log_alpha)

    def forward(self):
        s = self.sample_s() if self.training or self.log_alpha.requires_grad else self.mean_s()
        return (s * (self.right - self.left) + self.left).clamp(0.0, 1.0)

    def l0_penalty(self):
        return torch.sigmoid(self.log_alpha - self.beta * math.log(-self.left / self.right)).sum()


class GatedHeadAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.gate = HardConcreteGate(heads)

    def forward(self, x, key_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=key_mask[:, None, None, :])
        o = o * self.gate().view(1, -1, 1, 1)
        return self.out(o.transpose(1, 2).reshape(B, T, D))


class PrunableIntentClassifier(nn.Module):
    def __init__(self, vocab=200, dim=32, heads=4, depth=2, n_intents=7, max_len=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.attn = nn.ModuleList([GatedHeadAttention(dim, heads) for _ in range(depth)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(2 * depth)])
        self.cls = nn.Linear(dim, n_intents)

    def forward(self, ids):
        mask = ids != 0
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for i, (attn, ff) in enumerate(zip(self.attn, self.ff)):
            x = self.norms[2 * i](x + attn(x, mask))
            x = self.norms[2 * i + 1](x + ff(x))
        w = mask.unsqueeze(-1).float()
        return self.cls((x * w).sum(1) / w.sum(1))

    def l0_penalty(self):
        return sum(a.gate.l0_penalty() for a in self.attn)


def build():
    torch.manual_seed(0)
    model = PrunableIntentClassifier().eval()
    ids = torch.randint(1, 200, (3, 12))
    ids[1, 8:] = 0
    ids[2, 5:] = 0
    return model, (ids,)
