"""CoTracker-style joint point tracker update transformer (Karaev et al., 2024).

Input tokens form a grid: tracks x frames. Attention is factorized: along time within each track,
then across tracks within each frame through a handful of virtual tracks (proxy tokens: virtual
tracks read the real tracks, real tracks read the virtual tracks). Query points that were not
sampled for a video are padding (track_mask == 0) and are never read. In the default window the
number of tracks equals the number of frames (8), so the two grid axes only differ by meaning.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.q, self.kv, self.o = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim), nn.Linear(dim, dim)

    def forward(self, x, ctx, key_mask=None):
        B, Lq, D = x.shape
        sp = lambda t: t.view(B, t.size(1), self.heads, D // self.heads).transpose(1, 2)
        k, v = self.kv(ctx).chunk(2, dim=-1)
        mask = None if key_mask is None else key_mask[:, None, None, :]
        o = F.scaled_dot_product_attention(sp(self.q(x)), sp(k), sp(v), attn_mask=mask)
        return self.o(o.transpose(1, 2).reshape(B, Lq, D))


class FactorizedBlock(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.time_attn, self.n_t = Attention(dim, heads), nn.LayerNorm(dim)
        self.virt_read, self.n_v = Attention(dim, heads), nn.LayerNorm(dim)
        self.real_read, self.n_r = Attention(dim, heads), nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, track_mask):
        B, N, T, D = x.shape
        h = self.n_t(x).reshape(B * N, T, D)
        x = x + self.time_attn(h, h).view(B, N, T, D)
        V = N - track_mask.size(1)
        per_frame = x.transpose(1, 2).reshape(B * T, N, D)
        virt, real = per_frame[:, :V], per_frame[:, V:]
        real_ok = track_mask.repeat_interleave(T, dim=0).bool()
        virt = virt + self.virt_read(self.n_v(virt), self.n_v(real), real_ok)
        real = real + self.real_read(self.n_r(real), self.n_r(virt))
        x = torch.cat([virt, real], dim=1).view(B, T, N, D).transpose(1, 2)
        return x + self.mlp(x)


class TrackUpdateTransformer(nn.Module):
    def __init__(self, in_dim=36, dim=32, heads=4, depth=2, n_virtual=4, window=8):
        super().__init__()
        self.inp = nn.Linear(in_dim, dim)
        self.time_emb = nn.Parameter(torch.randn(window, dim) * 0.02)
        self.virtual = nn.Parameter(torch.randn(n_virtual, 1, dim) * 0.02)
        self.blocks = nn.ModuleList(FactorizedBlock(dim, heads) for _ in range(depth))
        self.head = nn.Linear(dim, 3)

    def forward(self, track_feats, track_mask):
        B, N, T, _ = track_feats.shape
        x = self.inp(track_feats) + self.time_emb[:T]
        x = torch.cat([self.virtual.expand(B, -1, T, -1) + self.time_emb[:T], x], dim=1)
        for blk in self.blocks:
            x = blk(x, track_mask)
        out = self.head(x[:, self.virtual.size(0):])
        return out[..., :2], out[..., 2]


def build():
    torch.manual_seed(0)
    model = TrackUpdateTransformer().eval()
    track_feats = torch.randn(2, 8, 8, 36)
    track_mask = torch.ones(2, 8, dtype=torch.long)
    track_mask[1, 5:] = 0
    return model, (track_feats, track_mask)
