"""Pre-norm transformer encoder over padded feature sequences."""
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Dropout(dropout), nn.Linear(d_ff, d_model))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, src_key_padding_mask):
        # src_key_padding_mask: (B, S) bool, True where the position is padding
        B, S, _ = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        q, k, v = (t.view(B, S, self.n_heads, self.d_head).transpose(1, 2) for t in (q, k, v))
        scores = q @ k.transpose(-1, -2) * self.d_head**-0.5
        keep = ~src_key_padding_mask[:, None, None, :]
        scores = torch.where(keep, scores, torch.finfo(scores.dtype).min)
        attn = self.dropout(scores.softmax(dim=-1))
        ctx = (attn @ v).transpose(1, 2).reshape(B, S, -1)
        x = x + self.dropout(self.out(ctx))
        x = x + self.dropout(self.ff(self.norm2(x)))
        return x


class PaddedEncoder(nn.Module):
    def __init__(self, feat_dim=20, d_model=32, n_heads=4, n_layers=2):
        super().__init__()
        self.input_proj = nn.Linear(feat_dim, d_model)
        self.layers = nn.ModuleList(EncoderLayer(d_model, n_heads, 2 * d_model) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, feats, src_key_padding_mask):
        h = self.input_proj(feats)
        for layer in self.layers:
            h = layer(h, src_key_padding_mask)
        h = self.norm(h)
        return h.masked_fill(src_key_padding_mask.unsqueeze(-1), 0.0)


def build():
    torch.manual_seed(0)
    model = PaddedEncoder().eval()
    feats = torch.randn(3, 9, 20)
    lengths = torch.tensor([9, 6, 3])
    src_key_padding_mask = torch.arange(9)[None, :] >= lengths[:, None]
    return model, (feats,), {"src_key_padding_mask": src_key_padding_mask}
