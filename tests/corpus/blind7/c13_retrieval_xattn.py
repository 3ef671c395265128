import torch
import torch.nn as nn
import torch.nn.functional as F


class MHA(nn.Module):
    def __init__(self, d, heads, kv_dim=None):
        super().__init__()
        kv_dim = kv_dim or d
        self.h = heads
        self.q = nn.Linear(d, d, bias=False)
        self.kv = nn.Linear(kv_dim, 2 * d, bias=False)
        self.o = nn.Linear(d, d)

    def forward(self, x, ctx, attn_mask=None, is_causal=False):
        B, Tq, D = x.shape
        Tk = ctx.shape[1]
        q = self.q(x).view(B, Tq, self.h, -1).transpose(1, 2)
        k, v = self.kv(ctx).view(B, Tk, 2, self.h, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=is_causal)
        return self.o(out.transpose(1, 2).reshape(B, Tq, D))


class RetrievalDecoderBlock(nn.Module):
    def __init__(self, d=32, heads=4, nb_dim=24):
        super().__init__()
        self.norm1 = nn.LayerNorm(d)
        self.self_attn = MHA(d, heads)
        self.nb_norm = nn.LayerNorm(nb_dim)
        self.norm2 = nn.LayerNorm(d)
        self.cross_attn = MHA(d, heads, nb_dim)
        self.norm3 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.nb_pos = nn.Parameter(torch.randn(1, 1, 16, nb_dim) * 0.02)

    def forward(self, x, neighbors, neighbor_mask):
        B, K, L, _ = neighbors.shape
        h = self.norm1(x)
        x = x + self.self_attn(h, h, is_causal=True)
        nb = self.nb_norm(neighbors + self.nb_pos[:, :, :L]).reshape(B, K * L, -1)
        keep = neighbor_mask.reshape(B, 1, 1, K * L)
        x = x + self.cross_attn(self.norm2(x), nb, attn_mask=keep)
        return x + self.ff(self.norm3(x))


def build():
    torch.manual_seed(0)
    model = RetrievalDecoderBlock().eval()
    x = torch.randn(2, 8, 32)
    neighbors = torch.randn(2, 3, 4, 24)
    neighbor_mask = torch.ones(2, 3, 4, dtype=torch.bool)
    neighbor_mask[0, 2, 3:] = False
    neighbor_mask[1, 1, 2:] = False
    neighbor_mask[1, 2, :] = False
    return model, (x, neighbors, neighbor_mask)
