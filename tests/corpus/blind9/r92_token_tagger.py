import math

import torch
import torch.nn as nn


class MaskedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.h = n_heads
        self.d_k = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask):
        b, n, _ = x.shape
        q = self.w_q(x).view(b, n, self.h, self.d_k).transpose(1, 2)
        k = self.w_k(x).view(b, n, self.h, self.d_k).transpose(1, 2)
        v = self.w_v(x).view(b, n, self.h, self.d_k).transpose(1, 2)
        scores = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(self.d_k)
        scores = scores.masked_fill(mask[:, None, None, :] == 0, -1e9)
        attn = self.drop(scores.softmax(dim=-1))
        out = torch.einsum("bhij,bhjd->bhid", attn, v).transpose(1, 2).reshape(b, n, -1)
        out = self.w_o(out)
        return out * mask[:, :, None].to(out.dtype)


class TaggerLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.attn = MaskedSelfAttention(d_model, n_heads)
        self.ln1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x, mask):
        x = self.ln1(x + self.attn(x, mask))
        return self.ln2(x + self.ff(x))


class TokenTagger(nn.Module):
    def __init__(self, vocab=55, d_model=32, n_heads=4, n_layers=2, n_tags=9, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([TaggerLayer(d_model, n_heads) for _ in range(n_layers)])
        self.cls = nn.Linear(d_model, n_tags)

    def forward(self, tokens, mask):
        x = self.tok(tokens) + self.pos.weight[: tokens.size(1)][None]
        for layer in self.layers:
            x = layer(x, mask)
        return self.cls(x)


def build():
    torch.manual_seed(0)
    model = TokenTagger().eval()
    tokens = torch.randint(1, 55, (3, 8))
    mask = torch.ones(3, 8, dtype=torch.long)
    mask[0, 6:] = 0
    mask[2, 3:] = 0
    tokens = tokens * mask
    return model, (tokens, mask)
