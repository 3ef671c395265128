"""Token merging for a transformer encoder over a 2-D latent grid (ToMe for Stable Diffusion
style: merge before attention, unmerge after).

The grid is cut into 2x2 cells; one token per cell is a destination, the others are sources.
The r most redundant sources (highest cosine similarity to some destination) are averaged into
their best destination, attention runs on the reduced set, and outputs are copied back.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def bipartite_merge_2d(x, w, h, sx=2, sy=2, r=8):
    """Returns merge(x) -> reduced tokens and unmerge(y) -> full tokens."""
    B, N, C = x.shape
    hsy, wsx = h // sy, w // sx
    rand_idx = torch.randint(sy * sx, size=(hsy, wsx, 1), device=x.device)
    idx_buffer = torch.zeros(hsy, wsx, sy * sx, device=x.device, dtype=torch.int64)
    idx_buffer.scatter_(2, rand_idx, -1)
    idx_buffer = idx_buffer.view(hsy, wsx, sy, sx).transpose(1, 2).reshape(hsy * sy, wsx * sx)
    rand_idx = idx_buffer.reshape(1, -1, 1).argsort(dim=1)
    num_dst = hsy * wsx
    a_idx, b_idx = rand_idx[:, num_dst:, :], rand_idx[:, :num_dst, :]

    def split(t):
        c = t.shape[-1]
        return t.gather(1, a_idx.expand(B, -1, c)), t.gather(1, b_idx.expand(B, -1, c))

    metric = F.normalize(x, dim=-1)
    a, b = split(metric)
    scores = a @ b.transpose(-1, -2)
    node_max, node_idx = scores.max(dim=-1)
    edge_idx = node_max.argsort(dim=-1, descending=True)[..., None]
    unm_idx, src_idx = edge_idx[:, r:], edge_idx[:, :r]
    dst_idx = node_idx[..., None].gather(1, src_idx)

    def merge(t):
        src, dst = split(t)
        c = t.shape[-1]
        unm = src.gather(1, unm_idx.expand(-1, -1, c))
        src = src.gather(1, src_idx.expand(-1, -1, c))
        dst = dst.scatter_reduce(1, dst_idx.expand(-1, -1, c), src, reduce="mean")
        return torch.cat([unm, dst], dim=1)

    def unmerge(t):
        n_unm = unm_idx.shape[1]
        c = t.shape[-1]
        unm, dst = t[:, :n_unm], t[:, n_unm:]
        src = dst.gather(1, dst_idx.expand(-1, -1, c))
        out = torch.zeros(B, N, c, device=t.device, dtype=t.dtype)
        out.scatter_(1, b_idx.expand(B, -1, c), dst)
        out.scatter_(1, a_idx.expand(B, -1, c).gather(1, unm_idx.expand(-1, -1, c)), unm)
        out.scatter_(1, a_idx.expand(B, -1, c).gather(1, src_idx.expand(-1, -1, c)), src)
        return out

    return merge, unmerge


class MergedBlock(nn.Module):
    def __init__(self, dim, heads, r):
        super().__init__()
        self.r = r
        self.norm1 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, h, w):
        merge, unmerge = bipartite_merge_2d(x, w, h, r=self.r)
        y = merge(self.norm1(x))
        y = self.attn(y, y, y, need_weights=False)[0]
        x = x + unmerge(y)
        return x + self.ff(self.norm2(x))


class LatentEncoder(nn.Module):
    def __init__(self, in_ch=4, dim=32, heads=4, depth=2, r=8):
        super().__init__()
        self.proj_in = nn.Conv2d(in_ch, dim, 1)
        self.blocks = nn.ModuleList([MergedBlock(dim, heads, r) for _ in range(depth)])
        self.proj_out = nn.Conv2d(dim, in_ch, 1)

    def forward(self, latents):
        B, _, H, W = latents.shape
        x = self.proj_in(latents).flatten(2).transpose(1, 2)
        for blk in self.blocks:
            x = blk(x, H, W)
        return self.proj_out(x.transpose(1, 2).reshape(B, -1, H, W))


def build():
    torch.manual_seed(0)
    model = LatentEncoder().eval()
    return model, (torch.randn(2, 4, 8, 8),)
