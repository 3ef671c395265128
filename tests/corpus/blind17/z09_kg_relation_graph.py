"""Relation-aware graph transformer for knowledge-graph completion over sampled subgraphs.

Each training example is a fixed-size subgraph around a query entity. Self-attention between
entities gets a learned per-head bias for the relation that links them (0 = no edge), and the
query entity's final state scores every candidate tail entity.
"""
import math

import torch
import torch.nn as nn


class RelationAwareAttention(nn.Module):
    def __init__(self, dim, heads, num_relations):
        super().__init__()
        self.heads = heads
        self.d_head = dim // heads
        self.w_q = nn.Linear(dim, dim)
        self.w_k = nn.Linear(dim, dim)
        self.w_v = nn.Linear(dim, dim)
        self.w_o = nn.Linear(dim, dim)
        self.rel_bias = nn.Embedding(num_relations, heads)

    def forward(self, h, rel):
        # h: (B, N, D); rel: (B, N, N) relation id from node i to node j
        B, N, _ = h.shape
        q = self.w_q(h).view(B, N, self.heads, self.d_head)
        k = self.w_k(h).view(B, N, self.heads, self.d_head)
        v = self.w_v(h).view(B, N, self.heads, self.d_head)
        logits = torch.einsum("bihd,bjhd->bhij", q, k) / math.sqrt(self.d_head)
        logits = logits + self.rel_bias(rel).permute(0, 3, 1, 2)
        alpha = torch.softmax(logits, dim=-2)
        out = torch.einsum("bhij,bjhd->bihd", alpha, v).reshape(B, N, -1)
        return self.w_o(out)


class KGSubgraphTransformer(nn.Module):
    def __init__(self, num_entities=200, num_relations=12, dim=48, heads=4, depth=2):
        super().__init__()
        self.entity = nn.Embedding(num_entities, dim)
        self.layers = nn.ModuleList([RelationAwareAttention(dim, heads, num_relations) for _ in range(depth)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.ffn = nn.ModuleList([nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.query_rel = nn.Embedding(num_relations, dim)

    def forward(self, entities, rel, query_relation):
        h = self.entity(entities)
        for attn, norm, ffn in zip(self.layers, self.norms, self.ffn):
            h = norm(h + attn(h, rel))
            h = h + ffn(h)
        anchor = h[:, 0] + self.query_rel(query_relation)
        return anchor @ self.entity.weight.t()


def build():
    torch.manual_seed(0)
    model = KGSubgraphTransformer().eval()
    B, N = 3, 9
    entities = torch.randint(0, 200, (B, N))
    rel = torch.randint(0, 12, (B, N, N)) * (torch.rand(B, N, N) < 0.4)
    query_relation = torch.randint(1, 12, (B,))
    return model, (entities, rel, query_relation)
