"""Relation-aware self-attention (Shaw et al. 2018 / RAT-SQL style) over entity graphs.

The relation r_ij between node i and node j contributes a key vector and a value vector:
    e_ij = q_i . (k_j + rK_ij) / sqrt(d_h),   z_i = sum_j a_ij (v_j + rV_ij).
Subgraphs have different sizes, so the batch is padded and `node_mask` marks real nodes.
"""
import math

import torch
import torch.nn as nn


class ShawRelationAttention(nn.Module):
    def __init__(self, dim, heads, num_relations):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.rel_k = nn.Embedding(num_relations, self.dh)
        self.rel_v = nn.Embedding(num_relations, self.dh)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, rel, node_mask):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.h, self.dh).permute(2, 0, 3, 1, 4)
        rk, rv = self.rel_k(rel), self.rel_v(rel)  # (B, N, N, dh), shared by all heads
        e = torch.einsum("bhid,bhjd->bhij", q, k) + torch.einsum("bhid,bijd->bhij", q, rk)
        e = e / math.sqrt(self.dh)
        e = e.masked_fill(~node_mask[:, None, None, :], float("-inf"))
        a = e.softmax(dim=-1)
        z = torch.einsum("bhij,bhjd->bhid", a, v) + torch.einsum("bhij,bijd->bhid", a, rv)
        return self.out(z.transpose(1, 2).reshape(B, N, D))


class RelationalEncoder(nn.Module):
    def __init__(self, num_entities=200, num_relations=10, dim=32, heads=4, depth=2, n_classes=6):
        super().__init__()
        self.emb = nn.Embedding(num_entities, dim)
        self.attn = nn.ModuleList([ShawRelationAttention(dim, heads, num_relations) for _ in range(depth)])
        self.ln = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.cls = nn.Linear(dim, n_classes)

    def forward(self, entities, rel, node_mask):
        x = self.emb(entities)
        for attn, ln in zip(self.attn, self.ln):
            x = ln(x + attn(x, rel, node_mask))
        return self.cls(x)


def build():
    torch.manual_seed(0)
    B, N = 3, 10
    entities = torch.randint(0, 200, (B, N))
    rel = torch.randint(0, 10, (B, N, N))
    node_mask = torch.ones(B, N, dtype=torch.bool)
    node_mask[1, 6:] = False
    node_mask[2, 8:] = False
    model = RelationalEncoder().eval()
    return model, (entities, rel, node_mask)
