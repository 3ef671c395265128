"""BERT4Rec (Sun et al., 2019): a bidirectional encoder over a user's item history.
Histories are left-padded with item 0; the last slot holds the [MASK] item to predict.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        self.d_k, self.h = d_model // h, h
        self.linear_layers = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(3)])
        self.output_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value, mask):
        B = query.size(0)
        query, key, value = [l(x).view(B, -1, self.h, self.d_k).transpose(1, 2)
                             for l, x in zip(self.linear_layers, (query, key, value))]
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        scores = scores.masked_fill(mask == 0, -1e-9)
        p_attn = self.dropout(F.softmax(scores, dim=-1))
        x = torch.matmul(p_attn, value)
        x = x.transpose(1, 2).contiguous().view(B, -1, self.h * self.d_k)
        return self.output_linear(x)


class TransformerBlock(nn.Module):
    def __init__(self, hidden, heads, dropout=0.1):
        super().__init__()
        self.attention = MultiHeadedAttention(heads, hidden, dropout)
        self.ffn = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))
        self.norm1, self.norm2 = nn.LayerNorm(hidden), nn.LayerNorm(hidden)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask):
        h = self.norm1(x)
        x = x + self.dropout(self.attention(h, h, h, mask))
        return x + self.dropout(self.ffn(self.norm2(x)))


class BERT4Rec(nn.Module):
    def __init__(self, n_items=60, max_len=16, hidden=32, heads=4, n_layers=2):
        super().__init__()
        self.mask_token = n_items + 1
        self.item_emb = nn.Embedding(n_items + 2, hidden, padding_idx=0)
        self.pos_emb = nn.Embedding(max_len, hidden)
        self.blocks = nn.ModuleList(TransformerBlock(hidden, heads) for _ in range(n_layers))
        self.out = nn.Linear(hidden, n_items + 1)

    def forward(self, seq):
        mask = (seq > 0).unsqueeze(1).repeat(1, seq.size(1), 1).unsqueeze(1)
        x = self.item_emb(seq) + self.pos_emb.weight[: seq.size(1)].unsqueeze(0)
        for block in self.blocks:
            x = block(x, mask)
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = BERT4Rec().eval()
    lengths = torch.tensor([16, 11, 6])
    seq = torch.randint(1, 61, (3, 16))
    seq = seq.masked_fill(torch.arange(16)[None, :] < (16 - lengths)[:, None], 0)
    seq[:, -1] = model.mask_token
    return model, (seq,)
