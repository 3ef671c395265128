"""Speech-unit encoder on variable-length feature sequences, attention via FlexAttention.

The batch arrives padded to a common length together with the true lengths; the padding
rule is written once as a mask_mod and turned into a BlockMask shared by every layer.
"""
import torch
import torch.nn as nn
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


class FlexEncoderLayer(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.h = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.GELU(), nn.Linear(2 * d_model, d_model))

    def forward(self, x, block_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        a = flex_attention(q, k, v, block_mask=block_mask)
        x = x + self.proj(a.transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.norm2(x))


class UnitEncoder(nn.Module):
    def __init__(self, n_feats=16, d_model=32, n_layers=2, n_units=20):
        super().__init__()
        self.inp = nn.Linear(n_feats, d_model)
        self.pos = nn.Embedding(64, d_model)
        self.layers = nn.ModuleList(FlexEncoderLayer(d_model) for _ in range(n_layers))
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_units)

    def forward(self, feats, lengths):
        B, T, _ = feats.shape

        def keep(b, h, q_idx, kv_idx):
            return q_idx < lengths[b]

        block_mask = create_block_mask(keep, B, None, T, T, device=feats.device)
        x = self.inp(feats) + self.pos(torch.arange(T, device=feats.device))
        for layer in self.layers:
            x = layer(x, block_mask)
        return self.head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = UnitEncoder().eval()
    feats = torch.randn(2, 12, 16)
    lengths = torch.tensor([12, 7])
    return model, (feats, lengths)
