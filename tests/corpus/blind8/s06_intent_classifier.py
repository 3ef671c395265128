import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.proj = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        q, k, v = self.proj(x).view(B, T, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        s = torch.matmul(q, k.transpose(-1, -2)) * (1.0 / math.sqrt(self.d_head))
        s = s.masked_fill(pad_mask.view(B, 1, 1, T), float("-inf"))
        p = self.drop(F.softmax(s, dim=-1))
        return self.out(torch.matmul(p, v).transpose(1, 2).reshape(B, T, D))


class LeftPadEncoder(nn.Module):
    def __init__(self, vocab=50, d_model=32, n_heads=4, n_layers=2, pad_id=2):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab, d_model, padding_idx=pad_id)
        self.pos = nn.Embedding(16, d_model)
        self.attn = nn.ModuleList([EncoderAttention(d_model, n_heads) for _ in range(n_layers)])
        self.ff = nn.ModuleList([nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, d_model))
                                 for _ in range(n_layers)])
        self.ln1 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.ln2 = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(n_layers)])
        self.head = nn.Linear(d_model, 2)

    def forward(self, tokens):
        pad_mask = tokens == self.pad_id
        positions = ((~pad_mask).long().cumsum(dim=1) - 1).clamp(min=0)
        x = self.tok(tokens) + self.pos(positions)
        for a, f, l1, l2 in zip(self.attn, self.ff, self.ln1, self.ln2):
            x = l1(x + a(x, pad_mask))
            x = l2(x + f(x))
        return self.head(x[:, -1])


def build():
    torch.manual_seed(0)
    model = LeftPadEncoder().eval()
    tokens = torch.tensor([[2, 2, 2, 14, 7, 33, 9], [21, 5, 40, 17, 8, 26, 11], [2, 2, 2, 2, 2, 30, 6]])
    return model, (tokens,)
