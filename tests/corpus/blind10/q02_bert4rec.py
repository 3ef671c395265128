import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * torch.pow(x, 3))))


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        self.d_k = d_model // h
        self.h = h
        self.linear_layers = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(3)])
        self.output_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        query, key, value = [
            lin(x).view(b, -1, self.h, self.d_k) for lin, x in zip(self.linear_layers, (query, key, value))
        ]
        scores = torch.einsum("bqhd,bkhd->bhqk", query, key) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        p_attn = self.dropout(F.softmax(scores, dim=-1))
        x = torch.einsum("bhqk,bkhd->bqhd", p_attn, value)
        return self.output_linear(x.reshape(b, -1, self.h * self.d_k))


class TransformerBlock(nn.Module):
    def __init__(self, hidden, heads, ff, dropout):
        super().__init__()
        self.attention = MultiHeadedAttention(heads, hidden, dropout)
        self.ff = nn.Sequential(nn.Linear(hidden, ff), GELU(), nn.Dropout(dropout), nn.Linear(ff, hidden))
        self.norm1 = nn.LayerNorm(hidden)
        self.norm2 = nn.LayerNorm(hidden)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask):
        x = self.norm1(x + self.dropout(self.attention(x, x, x, mask)))
        return self.norm2(x + self.dropout(self.ff(x)))


class BERT4Rec(nn.Module):
    def __init__(self, num_items=40, max_len=10, hidden=32, heads=4, layers=2, dropout=0.1):
        super().__init__()
        self.pad_id, self.mask_id = 0, num_items + 1
        self.token = nn.Embedding(num_items + 2, hidden, padding_idx=0)
        self.position = nn.Embedding(max_len, hidden)
        self.blocks = nn.ModuleList(TransformerBlock(hidden, heads, hidden * 4, dropout) for _ in range(layers))
        self.out = nn.Linear(hidden, num_items + 1)

    def forward(self, seq, attention_mask):
        mask = attention_mask[:, None, None, :]
        pos = torch.arange(seq.size(1), device=seq.device).unsqueeze(0)
        x = self.token(seq) + self.position(pos)
        for blk in self.blocks:
            x = blk(x, mask)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = BERT4Rec().eval()
    lens = [10, 6, 3]
    seq = torch.zeros(3, 10, dtype=torch.long)
    for i, n in enumerate(lens):
        seq[i, :n] = torch.randint(1, 41, (n,))
        seq[i, n - 1] = model.mask_id
    seq[0, 4] = model.mask_id
    attention_mask = (seq != model.pad_id).long()
    return model, (seq, attention_mask)
