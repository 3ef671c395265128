"""Contract clause retrieval (CUAD-style): which clause of a contract answers a clause-type query.

A shared bi-encoder embeds queries ("Does the contract contain a non-compete?") and candidate
clauses; embeddings are mean-pooled over real tokens and L2-normalised, and every query is scored
against every clause of the batch (in-batch negatives during training).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim, heads, dropout=0.1):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        scale = q.size(-1) ** -0.5
        q, k, v = (t.view(B, T, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) * scale
        scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        attn = self.drop(scores.softmax(dim=-1))
        return self.proj((attn @ v).transpose(1, 2).reshape(B, T, D))


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = SelfAttention(dim, heads)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, mask):
        x = self.ln1(x + self.attn(x, mask))
        return self.ln2(x + self.ff(x))


class ClauseBiEncoder(nn.Module):
    def __init__(self, vocab=400, dim=48, heads=4, depth=2, max_len=128, temperature=0.05):
        super().__init__()
        self.temperature = temperature
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([EncoderLayer(dim, heads) for _ in range(depth)])

    def embed(self, ids):
        mask = ids != 0
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))
        for layer in self.layers:
            x = layer(x, mask)
        w = mask.unsqueeze(-1).float()
        return F.normalize((x * w).sum(1) / w.sum(1), dim=-1)

    def forward(self, query_ids, clause_ids):
        return self.embed(query_ids) @ self.embed(clause_ids).t() / self.temperature


def build():
    torch.manual_seed(0)
    model = ClauseBiEncoder().eval()
    query_ids = torch.randint(1, 400, (3, 8))
    query_ids[1, 6:] = 0
    clause_ids = torch.randint(1, 400, (3, 24))
    clause_ids[0, 17:] = 0
    clause_ids[2, 11:] = 0
    return model, (query_ids, clause_ids)
