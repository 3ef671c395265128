"""Performer encoder (Choromanski et al., 2021): softmax attention approximated with FAVOR+
positive orthogonal random features, linear in the sequence length. No softmax is formed.
"""
import math

import torch
import torch.nn as nn


def gaussian_orthogonal_random_matrix(nb_rows, nb_cols, device=None):
    blocks = []
    for _ in range(math.ceil(nb_rows / nb_cols)):
        q, _ = torch.linalg.qr(torch.randn(nb_cols, nb_cols, device=device))
        blocks.append(q.t())
    mat = torch.cat(blocks)[:nb_rows]
    multiplier = torch.randn(nb_rows, nb_cols, device=device).norm(dim=1)
    return multiplier[:, None] * mat


def softmax_kernel(data, projection, is_query, key_mask=None, eps=1e-4):
    data = data * data.shape[-1] ** -0.25
    ratio = projection.shape[0] ** -0.5
    dash = data @ projection.t()
    diag = (data ** 2).sum(dim=-1, keepdim=True) / 2
    if is_query:
        stab = dash.amax(dim=-1, keepdim=True)
    else:
        stab = dash.masked_fill(~key_mask, float("-inf")).amax(dim=(-2, -1), keepdim=True)
    return ratio * (torch.exp(dash - diag - stab) + eps)


class FavorAttention(nn.Module):
    def __init__(self, dim, heads=4, nb_features=16):
        super().__init__()
        self.heads, self.dim_head = heads, dim // heads
        self.to_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.register_buffer("projection_matrix", gaussian_orthogonal_random_matrix(nb_features, self.dim_head))

    def forward(self, x, mask):
        B, N, D = x.shape
        q, k, v = self.to_qkv(x).view(B, N, 3, self.heads, self.dim_head).permute(2, 0, 3, 1, 4)
        key_mask = mask[:, None, :, None]
        q = softmax_kernel(q, self.projection_matrix, is_query=True)
        k = softmax_kernel(k, self.projection_matrix, is_query=False, key_mask=key_mask) * key_mask
        context = torch.einsum("bhnm,bhnd->bhmd", k, v)
        normalizer = torch.einsum("bhnm,bhm->bhn", q, k.sum(dim=2))
        out = torch.einsum("bhnm,bhmd->bhnd", q, context) / normalizer.unsqueeze(-1)
        return self.to_out(out.transpose(1, 2).reshape(B, N, D))


class PerformerEncoder(nn.Module):
    def __init__(self, vocab=128, dim=32, depth=2, heads=4, max_len=64, n_classes=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(nn.ModuleList([
            nn.LayerNorm(dim), FavorAttention(dim, heads),
            nn.LayerNorm(dim), nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim)),
        ]) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, n_classes)

    def forward(self, tokens, mask):
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1), device=tokens.device))
        for ln1, attn, ln2, ff in self.layers:
            x = x + attn(ln1(x), mask)
            x = x + ff(ln2(x))
        x = self.norm(x)
        m = mask.unsqueeze(-1).float()
        return self.head((x * m).sum(1) / m.sum(1))


def build():
    torch.manual_seed(0)
    model = PerformerEncoder().eval()
    lengths = torch.tensor([22, 15, 8])
    mask = torch.arange(22)[None, :] < lengths[:, None]
    tokens = torch.randint(1, 128, (3, 22)) * mask
    return model, (tokens, mask)
