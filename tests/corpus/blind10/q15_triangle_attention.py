import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TriangleAttentionStartingNode(nn.Module):
    def __init__(self, c_z=16, c_hidden=8, no_heads=2):
        super().__init__()
        self.h, self.c = no_heads, c_hidden
        self.layer_norm = nn.LayerNorm(c_z)
        self.linear_tri = nn.Linear(c_z, no_heads, bias=False)
        self.qkv = nn.Linear(c_z, 3 * no_heads * c_hidden, bias=False)
        self.gate = nn.Linear(c_z, no_heads * c_hidden)
        self.out = nn.Linear(no_heads * c_hidden, c_z)

    def forward(self, z, mask):
        # z: [B, I, J, c_z]; attend from edge (i, j) to edges (i, k) with bias from (j, k)
        B, I, J, _ = z.shape
        z = self.layer_norm(z)
        q, k, v = self.qkv(z).view(B, I, J, 3, self.h, self.c).permute(3, 0, 1, 4, 2, 5)  # [B, I, H, J, c]
        tri_bias = self.linear_tri(z).permute(0, 3, 1, 2).unsqueeze(1)  # [B, 1, H, J, K]
        mask_bias = torch.zeros_like(mask).masked_fill(mask == 0, -1e9)[:, :, None, None, :]  # [B, I, 1, 1, K]
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=tri_bias + mask_bias)
        o = o.permute(0, 1, 3, 2, 4).reshape(B, I, J, self.h * self.c)
        return self.out(torch.sigmoid(self.gate(z)) * o)


class TriangleAttentionEndingNode(TriangleAttentionStartingNode):
    def forward(self, z, mask):
        return super().forward(z.transpose(1, 2), mask.transpose(1, 2)).transpose(1, 2)


class TriangleBlock(nn.Module):
    def __init__(self, c_z=16):
        super().__init__()
        self.start = TriangleAttentionStartingNode(c_z)
        self.end = TriangleAttentionEndingNode(c_z)

    def forward(self, z, seq_mask):
        pair_mask = seq_mask[:, :, None] * seq_mask[:, None, :]
        z = z + self.start(z, pair_mask)
        return z + self.end(z, pair_mask)


def build():
    torch.manual_seed(0)
    model = TriangleBlock().eval()
    z = torch.randn(2, 8, 8, 16)
    seq_mask = torch.ones(2, 8)
    seq_mask[1, 5:] = 0
    return model, (z, seq_mask)
