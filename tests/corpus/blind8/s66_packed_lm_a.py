import math
import torch
import torch.nn as nn


class PackedCausalAttention(nn.Module):
    def __init__(self, d, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)

    def forward(self, x, allowed):
        B, T, D = x.shape
        H = self.n_heads
        q, k, v = self.qkv(x).view(B, T, 3, H, D // H).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-2, -1)) / math.sqrt(D // H)
        s = s.masked_fill(~allowed[:, None], float("-inf"))
        y = s.softmax(-1) @ v
        return self.proj(y.transpose(1, 2).reshape(B, T, D))


class PackedLM(nn.Module):
    def __init__(self, vocab=40, d=32, n_heads=4, n_layers=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(16, d)
        self.attn = nn.ModuleList([PackedCausalAttention(d, n_heads) for _ in range(n_layers)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d) for _ in range(n_layers)])
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, segment_ids, position_ids):
        T = ids.size(1)
        causal = torch.ones(T, T, dtype=torch.bool, device=ids.device).tril()
        same = segment_ids[:, :, None] == segment_ids[:, None, :]
        valid = segment_ids > 0
        allowed = same & causal[None] & valid[:, None, :]
        x = self.tok(ids) + self.pos(position_ids)
        for att, mlp, l1, l2 in zip(self.attn, self.mlp, self.ln1, self.ln2):
            x = x + att(l1(x), allowed)
            x = x + mlp(l2(x))
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = PackedLM().eval()
    ids = torch.randint(0, 40, (2, 8))
    segment_ids = torch.tensor([[0, 0, 0, 1, 1, 2, 2, 2], [0, 0, 1, 1, 1, 1, 2, 2]])
    position_ids = torch.tensor([[0, 1, 2, 0, 1, 0, 1, 2], [0, 1, 0, 1, 2, 3, 0, 1]])
    return model, (ids, segment_ids, position_ids)
