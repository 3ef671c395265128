import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def softmax_kernel(data, projection, is_query, key_mask=None, eps=1e-4):
    # positive random features for exp(q.k / sqrt(d)) (FAVOR+)
    d = data.shape[-1]
    data_normalizer = d ** -0.25
    ratio = projection.shape[0] ** -0.5
    data_dash = torch.einsum("bhnd,md->bhnm", data_normalizer * data, projection)
    diag = (data ** 2).sum(-1, keepdim=True) * 0.5 * data_normalizer ** 2
    if is_query:
        stab = data_dash.amax(dim=-1, keepdim=True).detach()
    else:
        live = key_mask[:, None, :, None].bool()
        stab = data_dash.masked_fill(~live, float("-inf")).amax(dim=(-1, -2), keepdim=True).detach()
    return ratio * (torch.exp(data_dash - diag - stab) + eps)


class FastAttention(nn.Module):
    def __init__(self, dim_head=8, nb_features=32):
        super().__init__()
        g = torch.Generator().manual_seed(1234)
        self.register_buffer("projection", torch.randn(nb_features, dim_head, generator=g))

    def forward(self, q, k, v, key_mask):
        q = softmax_kernel(q, self.projection, True)
        k = softmax_kernel(k, self.projection, False, key_mask)
        k = k * key_mask[:, None, :, None]
        k_cumsum = k.sum(dim=-2)
        d_inv = 1.0 / torch.einsum("bhnm,bhm->bhn", q, k_cumsum)
        context = torch.einsum("bhnm,bhne->bhme", k, v)
        return torch.einsum("bhme,bhnm,bhn->bhne", context, q, d_inv)


class PerformerEncoder(nn.Module):
    def __init__(self, vocab=40, dim=32, heads=4, depth=2):
        super().__init__()
        self.heads = heads
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(16, dim)
        self.attn = FastAttention(dim // heads)
        self.qkv = nn.ModuleList(nn.Linear(dim, 3 * dim) for _ in range(depth))
        self.proj = nn.ModuleList(nn.Linear(dim, dim) for _ in range(depth))
        self.ln = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))
        self.ff = nn.ModuleList(nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
                                for _ in range(depth))

    def forward(self, ids, mask):
        B, N = ids.shape
        x = self.emb(ids) + self.pos(torch.arange(N))[None]
        m = mask.to(x.dtype)
        for qkv, proj, ln, ff in zip(self.qkv, self.proj, self.ln, self.ff):
            q, k, v = qkv(ln(x)).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
            out = self.attn(q, k, v, m)
            x = x + proj(out.transpose(1, 2).reshape(B, N, -1))
            x = x + ff(x)
        pooled = (x * m[..., None]).sum(1) / m.sum(1, keepdim=True)
        return pooled


def build():
    torch.manual_seed(0)
    model = PerformerEncoder().eval()
    ids = torch.zeros(2, 12, dtype=torch.long)
    ids[0, :12] = torch.randint(1, 40, (12,))
    ids[1, :7] = torch.randint(1, 40, (7,))
    mask = ids.ne(0)
    return model, (ids, mask)
