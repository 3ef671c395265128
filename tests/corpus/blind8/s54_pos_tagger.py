import math
import torch
import torch.nn as nn


class SinusoidalPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=128, dropout=0.1):
        super().__init__()
        self.dropout = nn.Dropout(dropout)
        pe = torch.zeros(1, max_len, d_model)
        position = torch.arange(max_len).float().unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[0, :, 0::2] = torch.sin(position * div)
        pe[0, :, 1::2] = torch.cos(position * div)
        self.register_buffer("pe", pe)

    def forward(self, x):
        return self.dropout(x + self.pe[:, : x.size(1)])


class Tagger(nn.Module):
    def __init__(self, vocab=55, n_tags=7, d_model=32, nhead=4, pad_id=1):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, d_model, padding_idx=pad_id)
        self.pe = SinusoidalPositionalEncoding(d_model)
        self.attn1 = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.attn2 = nn.MultiheadAttention(d_model, nhead, batch_first=True)
        self.n1 = nn.LayerNorm(d_model)
        self.n2 = nn.LayerNorm(d_model)
        self.n3 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))
        self.tags = nn.Linear(d_model, n_tags)

    def forward(self, tokens):
        pad = tokens.eq(self.pad_id)
        x = self.pe(self.emb(tokens) * math.sqrt(self.emb.embedding_dim))
        x = self.n1(x + self.attn1(x, x, x, key_padding_mask=pad, need_weights=False)[0])
        x = self.n2(x + self.ff(x))
        x = self.n3(x + self.attn2(x, x, x, key_padding_mask=pad, need_weights=False)[0])
        return self.tags(x)


def build():
    torch.manual_seed(0)
    model = Tagger().eval()
    tokens = torch.tensor([[10, 22, 35, 4, 17, 1, 1], [8, 44, 2, 29, 31, 13, 6], [19, 5, 1, 1, 1, 1, 1]])
    return model, (tokens,)
