import torch
import torch.nn as nn
import torch.nn.functional as F


class MergingAttention(nn.Module):
    def __init__(self, dim=32, heads=4, attn_drop=0.1, proj_drop=0.1):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.attn_drop = attn_drop
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x, size):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale + size.log().transpose(1, 2)[:, None]
        attn = F.dropout(attn.softmax(dim=-1), self.attn_drop)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj_drop(self.proj(out)), k.mean(1)


def merge_most_similar(x, size, keys, r):
    """Merge the r most similar (even, odd) token pairs, size-weighted; keeps token 0 (CLS) untouched."""
    k = F.normalize(keys, dim=-1)
    a, b = k[:, 2::2], k[:, 1::2][:, : k[:, 2::2].size(1)]
    sim = (a * b).sum(-1)  # similarity of neighbouring pairs (2i, 2i-1)
    pick = sim.topk(r, dim=-1).indices  # [B, r]
    B, N, C = x.shape
    out_x, out_s = [], []
    for bi in range(B):
        keep = torch.ones(N, dtype=torch.bool)
        xs, ss = x[bi].clone(), size[bi].clone()
        for p in pick[bi].tolist():
            src, dst = 2 + 2 * p, 1 + 2 * p
            xs[dst] = (xs[dst] * ss[dst] + xs[src] * ss[src]) / (ss[dst] + ss[src])
            ss[dst] = ss[dst] + ss[src]
            keep[src] = False
        out_x.append(xs[keep])
        out_s.append(ss[keep])
    return torch.stack(out_x), torch.stack(out_s)


class ViTWithMerging(nn.Module):
    def __init__(self, d=32, depth=2, r=3, n_cls=4):
        super().__init__()
        self.r = r
        self.embed = nn.Linear(48, d)
        self.cls = nn.Parameter(torch.zeros(1, 1, d))
        self.pos = nn.Parameter(torch.randn(1, 17, d) * 0.02)
        self.norms1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(depth))
        self.norms2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(depth))
        self.attns = nn.ModuleList(MergingAttention(d) for _ in range(depth))
        self.mlps = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)) for _ in range(depth))
        self.head = nn.Linear(d, n_cls)

    def forward(self, patches):
        x = torch.cat([self.cls.expand(patches.size(0), -1, -1), self.embed(patches)], 1) + self.pos
        size = torch.ones(x.shape[0], x.shape[1], 1)
        for n1, n2, attn, mlp in zip(self.norms1, self.norms2, self.attns, self.mlps):
            y, keys = attn(n1(x), size)
            x = x + y
            x, size = merge_most_similar(x, size, keys, self.r)
            x = x + mlp(n2(x))
        return self.head(x[:, 0])


def build():
    torch.manual_seed(0)
    model = ViTWithMerging().eval()
    patches = torch.randn(2, 16, 48)  # 4x4 grid of flattened 4x4x3 patches
    return model, (patches,)
