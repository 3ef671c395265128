"""Sequence-first (S, B, E) encoder built on nn.MultiheadAttention."""
import torch
import torch.nn as nn


class SeqFirstEncoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_ff, dropout=0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, dim_ff), nn.ReLU(), nn.Dropout(dropout), nn.Linear(dim_ff, d_model))
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_key_padding_mask):
        # src: (S, B, E); src_key_padding_mask: (B, S) with True at positions to ignore
        h = self.norm1(src)
        attn_out, _ = self.self_attn(h, h, h, key_padding_mask=src_key_padding_mask, need_weights=False)
        src = src + self.dropout(attn_out)
        return src + self.dropout(self.ff(self.norm2(src)))


class SeqFirstEncoder(nn.Module):
    def __init__(self, in_dim=12, d_model=32, nhead=4, num_layers=2):
        super().__init__()
        self.proj = nn.Linear(in_dim, d_model)
        self.layers = nn.ModuleList(SeqFirstEncoderLayer(d_model, nhead, 2 * d_model) for _ in range(num_layers))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, src, src_key_padding_mask):
        h = self.proj(src)
        for layer in self.layers:
            h = layer(h, src_key_padding_mask)
        return self.norm(h)


def build():
    torch.manual_seed(0)
    model = SeqFirstEncoder().eval()
    S, B = 8, 3
    src = torch.randn(S, B, 12)
    lengths = torch.tensor([8, 5, 2])
    src_key_padding_mask = torch.arange(S)[None, :] >= lengths[:, None]
    return model, (src, src_key_padding_mask)
