"""CLS-token text classifier over right-padded token batches."""
import math

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim, n_heads, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = dim // n_heads
        self.w_q = nn.Linear(dim, dim)
        self.w_k = nn.Linear(dim, dim)
        self.w_v = nn.Linear(dim, dim)
        self.w_o = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, attention_mask):
        B, T, C = x.shape
        q = self.w_q(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        k = self.w_k(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        v = self.w_v(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        ext_mask = attention_mask[:, None, :, None]  # broadcast over heads
        scores = scores.masked_fill(ext_mask == 0, -1e9)
        attn = self.dropout(torch.softmax(scores, dim=-1))
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(B, T, C)
        return self.w_o(out)


class EncoderLayer(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.attn = SelfAttention(dim, n_heads)
        self.norm1 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.ReLU(), nn.Dropout(0.1), nn.Linear(4 * dim, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x, attention_mask):
        x = self.norm1(x + self.attn(x, attention_mask))
        return self.norm2(x + self.ff(x))


class TextClassifier(nn.Module):
    def __init__(self, vocab=80, dim=32, n_heads=4, n_layers=2, num_labels=3, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(EncoderLayer(dim, n_heads) for _ in range(n_layers))
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask):
        x = self.embed(input_ids) + self.pos(torch.arange(input_ids.shape[1], device=input_ids.device))
        for layer in self.layers:
            x = layer(x, attention_mask)
        return self.classifier(x[:, 0])


def build():
    torch.manual_seed(0)
    model = TextClassifier().eval()
    attention_mask = (torch.arange(9)[None, :] < torch.tensor([6, 4, 9])[:, None]).long()
    input_ids = torch.randint(1, 80, (3, 9)) * attention_mask
    return model, (input_ids, attention_mask)
