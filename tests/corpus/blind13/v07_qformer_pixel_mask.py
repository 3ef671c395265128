"""Q-Former bottleneck over images of different sizes.

Images are resized keeping their aspect ratio and padded to a 4x4 patch grid; `patch_mask`
is 1 on patches that hold image content and 0 on the padding. 6 learned queries read the
patch features through cross-attention and are pooled into one image embedding.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QueryCrossBlock(nn.Module):
    def __init__(self, d=32, d_vis=24, heads=4):
        super().__init__()
        self.h = heads
        self.ln_q = nn.LayerNorm(d)
        self.ln_self = nn.LayerNorm(d)
        self.self_qkv = nn.Linear(d, 3 * d)
        self.self_o = nn.Linear(d, d)
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d_vis, 2 * d)
        self.o = nn.Linear(d, d)
        self.ln_ff = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def split(self, t):
        B, L, D = t.shape
        return t.view(B, L, self.h, D // self.h).transpose(1, 2)

    def merge(self, t):
        B, H, L, dh = t.shape
        return t.transpose(1, 2).reshape(B, L, H * dh)

    def forward(self, queries, patches, patch_mask):
        q, k, v = self.self_qkv(self.ln_self(queries)).chunk(3, dim=-1)
        queries = queries + self.self_o(self.merge(F.scaled_dot_product_attention(self.split(q), self.split(k), self.split(v))))
        k, v = self.kv(patches).chunk(2, dim=-1)
        q = self.split(self.q(self.ln_q(queries)))
        a = F.scaled_dot_product_attention(q, self.split(k), self.split(v), attn_mask=patch_mask[:, None, None, :] == 0)
        queries = queries + self.o(self.merge(a))
        return queries + self.ff(self.ln_ff(queries))


class ImageQFormer(nn.Module):
    def __init__(self, d_vis=24, d=32, n_query=6, n_layers=2, d_out=16):
        super().__init__()
        self.queries = nn.Parameter(torch.randn(1, n_query, d) * 0.5)
        self.vis_norm = nn.LayerNorm(d_vis)
        self.blocks = nn.ModuleList(QueryCrossBlock(d, d_vis) for _ in range(n_layers))
        self.proj = nn.Linear(d, d_out)

    def forward(self, patch_feats, patch_mask):
        B = patch_feats.size(0)
        patches = self.vis_norm(patch_feats)
        q = self.queries.expand(B, -1, -1)
        for blk in self.blocks:
            q = blk(q, patches, patch_mask)
        return F.normalize(self.proj(q).mean(1), dim=-1)


def build():
    torch.manual_seed(0)
    model = ImageQFormer().eval()
    B, gh, gw = 3, 4, 4
    patch_feats = torch.randn(B, gh * gw, 24)
    grid = torch.ones(B, gh, gw, dtype=torch.long)
    grid[0, :, 3:] = 0          # portrait image: last patch column is padding
    grid[2, 2:, :] = 0          # landscape image: bottom two patch rows are padding
    patch_mask = grid.flatten(1)
    return model, (patch_feats, patch_mask)
