import math

import torch
import torch.nn as nn


class EncoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout=0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout, batch_first=True)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, key_padding_mask=None):
        h = self.norm1(x)
        attn_out, _ = self.self_attn(h, h, h, key_padding_mask=key_padding_mask, need_weights=False)
        x = x + self.dropout(attn_out)
        x = x + self.dropout(self.ff(self.norm2(x)))
        return x


class SentenceEncoder(nn.Module):
    def __init__(self, vocab_size=50, d_model=32, n_heads=4, d_ff=64, n_layers=2, max_len=32, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.tok = nn.Embedding(vocab_size, d_model, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d_model)
        self.layers = nn.ModuleList([EncoderBlock(d_model, n_heads, d_ff) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d_model)
        self.scale = math.sqrt(d_model)

    def forward(self, input_ids, attention_mask):
        positions = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        x = self.tok(input_ids) * self.scale + self.pos(positions)
        key_padding_mask = attention_mask == 0
        for layer in self.layers:
            x = layer(x, key_padding_mask=key_padding_mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = SentenceEncoder().eval()
    input_ids = torch.randint(1, 50, (3, 8))
    attention_mask = torch.ones(3, 8, dtype=torch.long)
    attention_mask[0, 5:] = 0
    attention_mask[1, 7:] = 0
    attention_mask[2, 2:] = 0
    input_ids = input_ids * attention_mask
    return model, (input_ids, attention_mask)
