"""Ring attention simulated on one device: the sequence is split into shards, key/value shards rotate
around the ring and each partial result (out, lse) is merged with log-sum-exp weights."""
import torch
import torch.nn as nn


def shard_attention(q, k, v, causal_diag):
    s = (q @ k.transpose(-1, -2)) / q.size(-1) ** 0.5
    if causal_diag:
        n = q.size(-2)
        s = s.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
    lse = torch.logsumexp(s, dim=-1, keepdim=True)
    return torch.exp(s - lse) @ v, lse


def merge_partial(out, lse, block_out, block_lse):
    new_lse = torch.logaddexp(lse, block_lse)
    out = torch.exp(lse - new_lse) * out + torch.exp(block_lse - new_lse) * block_out
    return out, new_lse


def ring_attention(q, k, v, world_size):
    """causal attention; rank r holds query shard r and sees key shards 0..r"""
    qs, ks, vs = q.chunk(world_size, -2), k.chunk(world_size, -2), v.chunk(world_size, -2)
    outs = []
    for rank in range(world_size):
        out, lse = shard_attention(qs[rank], ks[rank], vs[rank], causal_diag=True)
        for step in range(1, world_size):
            src = (rank - step) % world_size  # the shard that arrives at this step of the ring
            if src > rank:
                continue  # a later shard: masked entirely under causality
            block_out, block_lse = shard_attention(qs[rank], ks[src], vs[src], causal_diag=False)
            out, lse = merge_partial(out, lse, block_out, block_lse)
        outs.append(out)
    return torch.cat(outs, dim=-2)


class RingBlock(nn.Module):
    def __init__(self, dim, heads, world_size):
        super().__init__()
        self.h, self.world_size = heads, world_size
        self.norm1, self.norm2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(dim, dim, bias=False) for _ in range(4))
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        B, T, D = x.shape
        h = self.norm1(x)
        q, k, v = (w(h).view(B, T, self.h, -1).transpose(1, 2) for w in (self.wq, self.wk, self.wv))
        y = ring_attention(q, k, v, self.world_size).transpose(1, 2).reshape(B, T, D)
        x = x + self.wo(y)
        return x + self.ff(self.norm2(x))


class RingLM(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, world_size=4, max_len=24):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(RingBlock(dim, heads, world_size) for _ in range(layers))
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.tok(ids) + self.pos(torch.arange(ids.size(1)))
        for b in self.blocks:
            x = b(x)
        return self.head(x)


def build():
    torch.manual_seed(0)
    return RingLM().eval(), (torch.randint(0, 50, (2, 16)),)
