"""Mask2Former transformer decoder layer: masked cross-attention from object queries to pixels.

Each query only attends inside the foreground of the mask it predicted at the previous layer
(sigmoid < 0.5 means "not allowed"). As in the reference implementation, a query whose predicted
mask is empty falls back to attending everywhere.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedAttentionDecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.cross_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.norm3 = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, queries, query_pos, memory, memory_pos, attn_mask):
        q = queries + query_pos
        out, _ = self.cross_attn(q, memory + memory_pos, memory, attn_mask=attn_mask, need_weights=False)
        queries = self.norm1(queries + out)
        q = queries + query_pos
        out, _ = self.self_attn(q, q, queries, need_weights=False)
        queries = self.norm2(queries + out)
        return self.norm3(queries + self.ffn(queries))


class MaskPredictionHead(nn.Module):
    def __init__(self, dim, num_classes):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.class_embed = nn.Linear(dim, num_classes + 1)
        self.mask_embed = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, queries, pixel_features, heads):
        q = self.norm(queries)
        logits = self.class_embed(q)
        masks = torch.einsum("bqc,bchw->bqhw", self.mask_embed(q), pixel_features)
        attn_mask = (masks.flatten(2).sigmoid() < 0.5)
        attn_mask = attn_mask.repeat_interleave(heads, dim=0)
        attn_mask[attn_mask.all(dim=-1)] = False
        return logits, masks, attn_mask.detach()


class Mask2FormerDecoder(nn.Module):
    def __init__(self, dim=32, heads=4, num_queries=6, num_layers=2, num_classes=5):
        super().__init__()
        self.heads = heads
        self.query_feat = nn.Embedding(num_queries, dim)
        self.query_embed = nn.Embedding(num_queries, dim)
        self.layers = nn.ModuleList([MaskedAttentionDecoderLayer(dim, heads) for _ in range(num_layers)])
        self.head = MaskPredictionHead(dim, num_classes)
        self.level_embed = nn.Parameter(torch.randn(dim) * 0.1)

    @staticmethod
    def sine_pos(B, H, W, dim):
        y = torch.arange(H, dtype=torch.float32)[:, None].expand(H, W)
        x = torch.arange(W, dtype=torch.float32)[None, :].expand(H, W)
        freqs = 10000 ** (-torch.arange(dim // 4, dtype=torch.float32) / (dim // 4))
        pe = torch.cat([(x[..., None] * freqs).sin(), (x[..., None] * freqs).cos(),
                        (y[..., None] * freqs).sin(), (y[..., None] * freqs).cos()], dim=-1)
        return pe.flatten(0, 1).unsqueeze(0).expand(B, -1, -1)

    def forward(self, memory_map, mask_features):
        B, C, H, W = memory_map.shape
        memory = memory_map.flatten(2).transpose(1, 2) + self.level_embed
        memory_pos = self.sine_pos(B, H, W, C)
        queries = self.query_feat.weight.unsqueeze(0).expand(B, -1, -1)
        query_pos = self.query_embed.weight.unsqueeze(0).expand(B, -1, -1)
        mask_small = F.interpolate(mask_features, size=(H, W), mode="bilinear", align_corners=False)
        logits, masks, attn_mask = self.head(queries, mask_small, self.heads)
        for layer in self.layers:
            queries = layer(queries, query_pos, memory, memory_pos, attn_mask)
            logits, masks, attn_mask = self.head(queries, mask_small, self.heads)
        full = self.head(queries, mask_features, self.heads)[1]
        return logits, full


def build():
    torch.manual_seed(0)
    model = Mask2FormerDecoder().eval()
    memory_map = torch.randn(3, 32, 4, 4)
    mask_features = torch.randn(3, 32, 8, 8)
    mask_features[2] = torch.randn(32, 1, 1).expand(32, 8, 8)    # a flat (blank) crop
    return model, (memory_map, mask_features)
