"""SimMIM pre-training forward pass on a BEiT-style backbone (masked image modelling).

Masked patches are replaced by a learned [MASK] embedding before the encoder, and a linear
head regresses the raw pixels of every patch. Attention uses BEiT's relative position bias
table: (2Wh-1)(2Ww-1) patch-to-patch offsets plus 3 entries for cls->token, token->cls and
cls->cls, shared by all layers.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RelativePositionBias(nn.Module):
    def __init__(self, window, heads):
        super().__init__()
        Wh, Ww = window
        self.num_relative_distance = (2 * Wh - 1) * (2 * Ww - 1) + 3
        self.table = nn.Parameter(torch.randn(self.num_relative_distance, heads) * 0.2)
        coords = torch.stack(torch.meshgrid(torch.arange(Wh), torch.arange(Ww), indexing="ij")).flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0).contiguous()
        rel[:, :, 0] += Wh - 1
        rel[:, :, 1] += Ww - 1
        rel[:, :, 0] *= 2 * Ww - 1
        index = torch.zeros(Wh * Ww + 1, Wh * Ww + 1, dtype=torch.long)
        index[1:, 1:] = rel.sum(-1)
        index[0, 0:] = self.num_relative_distance - 3
        index[0:, 0] = self.num_relative_distance - 2
        index[0, 0] = self.num_relative_distance - 1
        self.register_buffer("index", index, persistent=False)

    def forward(self):
        n = self.index.size(0)
        return self.table[self.index.view(-1)].view(n, n, -1).permute(2, 0, 1).contiguous()


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.q_bias = nn.Parameter(torch.zeros(dim))
        self.v_bias = nn.Parameter(torch.zeros(dim))
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, rel_bias):
        B, N, C = x.shape
        bias = torch.cat([self.q_bias, torch.zeros_like(self.v_bias), self.v_bias])
        q, k, v = F.linear(x, self.qkv.weight, bias).reshape(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=rel_bias.unsqueeze(0))
        return self.proj(out.transpose(1, 2).reshape(B, N, C))


class Block(nn.Module):
    def __init__(self, dim, heads, init_values=0.1):
        super().__init__()
        self.norm1, self.norm2 = nn.LayerNorm(dim, eps=1e-6), nn.LayerNorm(dim, eps=1e-6)
        self.attn = Attention(dim, heads)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.gamma_1 = nn.Parameter(init_values * torch.ones(dim))
        self.gamma_2 = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x, rel_bias):
        x = x + self.gamma_1 * self.attn(self.norm1(x), rel_bias)
        return x + self.gamma_2 * self.mlp(self.norm2(x))


class SimMIMBeit(nn.Module):
    def __init__(self, img=16, patch=4, dim=32, heads=4, depth=2):
        super().__init__()
        self.patch = patch
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.mask_token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.rel_pos = RelativePositionBias((img // patch, img // patch), heads)
        self.blocks = nn.ModuleList([Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.decoder = nn.Linear(dim, patch * patch * 3)

    def forward(self, pixel_values, bool_masked_pos):
        x = self.patch_embed(pixel_values).flatten(2).transpose(1, 2)
        B, L, _ = x.shape
        w = bool_masked_pos.unsqueeze(-1).type_as(x)
        x = x * (1 - w) + self.mask_token.expand(B, L, -1) * w
        x = torch.cat([self.cls_token.expand(B, -1, -1), x], dim=1)
        rel_bias = self.rel_pos()
        for blk in self.blocks:
            x = blk(x, rel_bias)
        return self.decoder(self.norm(x[:, 1:]))


def build():
    torch.manual_seed(0)
    model = SimMIMBeit().eval()
    pixel_values = torch.randn(2, 3, 16, 16)
    g = torch.Generator().manual_seed(5)
    bool_masked_pos = torch.rand(2, 16, generator=g) < 0.5
    return model, (pixel_values, bool_masked_pos)
