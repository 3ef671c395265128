"""Stick-breaking attention LM (Tan et al., "Scaling Stick-Breaking Attention", ICLR 2025).

Instead of a softmax, query i breaks a stick from the nearest key backwards: key j gets
    A_ij = beta_ij * prod_{j < k <= i} (1 - beta_ik),   beta = sigmoid(q.k / sqrt(d)),
so closer keys take their share first and the weights sum to at most one (the rest of the stick
is simply not attended). Computed in log space; the product over (j, i] is a reverse cumulative
sum along the key axis. The recency bias makes positional embeddings unnecessary.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class StickBreakingAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.out = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        z = q @ k.transpose(-1, -2) * self.dh ** -0.5
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        log_beta = F.logsigmoid(z)
        log_keep = F.logsigmoid(-z).masked_fill(~causal, 0.0)
        later = log_keep.flip(-1).cumsum(-1).flip(-1) - log_keep
        log_a = (log_beta + later).masked_fill(~causal, float("-inf"))
        o = log_a.exp() @ v
        return self.out(o.transpose(1, 2).reshape(B, T, D))


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.attn = StickBreakingAttention(dim, heads)
        self.ff = nn.Sequential(nn.Linear(dim, 3 * dim), nn.SiLU(), nn.Linear(3 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.n1(x))
        return x + self.ff(self.n2(x))


class StickBreakingLM(nn.Module):
    def __init__(self, vocab=128, dim=32, heads=4, depth=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(depth))
        self.norm = nn.RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        x = self.emb(ids)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = StickBreakingLM().eval()
    return model, (torch.randint(0, 128, (2, 14)),)
