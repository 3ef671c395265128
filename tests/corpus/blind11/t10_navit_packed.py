"""NaViT-style patch n' pack: variable-size images packed into one sequence per row, pooled per image."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm = nn.LayerNorm(dim)
        self.q_norm = nn.LayerNorm(dim // heads)
        self.k_norm = nn.LayerNorm(dim // heads)
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim, bias=False)

    def forward(self, x, attn_mask):
        B, N, D = x.shape
        q, k, v = self.to_qkv(self.norm(x)).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q, k = self.q_norm(q), self.k_norm(k)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        return self.to_out(out.transpose(1, 2).reshape(B, N, D))


class NaViT(nn.Module):
    def __init__(self, patch_dim=12, dim=32, heads=4, depth=2, max_side=8, max_images=3, num_classes=5):
        super().__init__()
        self.max_images = max_images
        self.to_patch = nn.Sequential(nn.LayerNorm(patch_dim), nn.Linear(patch_dim, dim), nn.LayerNorm(dim))
        self.pos_h = nn.Parameter(torch.randn(max_side, dim))
        self.pos_w = nn.Parameter(torch.randn(max_side, dim))
        self.layers = nn.ModuleList(
            nn.ModuleList([Attention(dim, heads), nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))])
            for _ in range(depth)
        )
        self.attn_pool_queries = nn.Parameter(torch.randn(dim))
        self.attn_pool = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, patches, image_ids, patch_positions):
        """patches: (B, L, patch_dim); image_ids: (B, L), -1 = padding; patch_positions: (B, L, 2) = (row, col)"""
        is_pad = image_ids == -1
        attn_mask = ~is_pad[:, None, None, :]
        x = self.to_patch(patches)
        x = x + self.pos_h[patch_positions[..., 0]] + self.pos_w[patch_positions[..., 1]]
        for attn, ff in self.layers:
            x = x + attn(x, attn_mask)
            x = x + ff(x)
        # one pooled vector per packed image: query j attends only to the patches of image j
        B = x.size(0)
        queries = self.attn_pool_queries.expand(B, self.max_images, -1)
        image_slots = torch.arange(self.max_images)
        pool_block = image_slots[None, :, None] != image_ids[:, None, :]
        pool_block = pool_block.repeat_interleave(self.attn_pool.num_heads, dim=0)
        pooled, _ = self.attn_pool(queries, x, x, attn_mask=pool_block, need_weights=False)
        return self.head(pooled)


def build():
    torch.manual_seed(0)
    model = NaViT().eval()
    # row 0: images of 2x3, 3x2 and 1x2 patches; row 1: 3x3, 2x2 and 1x1, then padding
    sizes = [[(2, 3), (3, 2), (1, 2)], [(3, 3), (2, 2), (1, 1)]]
    L = 16
    image_ids = torch.full((2, L), -1)
    pos = torch.zeros(2, L, 2, dtype=torch.long)
    for b, imgs in enumerate(sizes):
        i = 0
        for j, (h, w) in enumerate(imgs):
            for r in range(h):
                for c in range(w):
                    image_ids[b, i], pos[b, i, 0], pos[b, i, 1] = j, r, c
                    i += 1
    patches = torch.randn(2, L, 12)
    return model, (patches, image_ids, pos)
