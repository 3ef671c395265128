import torch
import torch.nn as nn


class MaskedCrossAttention(nn.Module):
    def __init__(self, dim, feat_dim, heads):
        super().__init__()
        self.h = heads
        self.dh = dim // heads
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(feat_dim, dim)
        self.v = nn.Linear(feat_dim, dim)
        self.o = nn.Linear(dim, dim)

    def forward(self, queries, feats, feat_mask):
        B, Q, D = queries.shape
        N = feats.shape[1]
        q = self.q(queries).view(B, Q, self.h, self.dh).transpose(1, 2)
        k = self.k(feats).view(B, N, self.h, self.dh).transpose(1, 2)
        v = self.v(feats).view(B, N, self.h, self.dh).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) * self.dh ** -0.5
        scores = scores.masked_fill(~feat_mask[:, None, :, None], torch.finfo(scores.dtype).min)
        attn = scores.softmax(dim=-1)
        return self.o((attn @ v).transpose(1, 2).reshape(B, Q, D))


class QFormerLayer(nn.Module):
    def __init__(self, dim, feat_dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm1 = nn.LayerNorm(dim)
        self.cross = MaskedCrossAttention(dim, feat_dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.norm3 = nn.LayerNorm(dim)

    def forward(self, q, feats, feat_mask):
        q = self.norm1(q + self.self_attn(q, q, q, need_weights=False)[0])
        q = self.norm2(q + self.cross(q, feats, feat_mask))
        return self.norm3(q + self.ffn(q))


class QFormer(nn.Module):
    def __init__(self, num_queries=8, dim=32, feat_dim=24, heads=4, depth=2):
        super().__init__()
        self.query_tokens = nn.Parameter(torch.randn(1, num_queries, dim) * 0.02)
        self.layers = nn.ModuleList([QFormerLayer(dim, feat_dim, heads) for _ in range(depth)])

    def forward(self, image_feats, feat_lens):
        B, N, _ = image_feats.shape
        feat_mask = torch.arange(N, device=image_feats.device)[None, :] < feat_lens[:, None]
        q = self.query_tokens.expand(B, -1, -1)
        for layer in self.layers:
            q = layer(q, image_feats, feat_mask)
        return q


def build():
    torch.manual_seed(0)
    model = QFormer().eval()
    image_feats = torch.randn(2, 8, 24)
    feat_lens = torch.tensor([8, 5])
    return model, (image_feats, feat_lens)
