"""Decoder that prefills a preallocated KV cache in fixed-size chunks."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def chunk_mask(q_len, kv_len, offset, device=None):
    # query i of the chunk sits at absolute position offset + i
    q = torch.arange(q_len, device=device)[:, None] + offset
    k = torch.arange(kv_len, device=device)[None, :]
    return k <= q


class CachedSelfAttention(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        shape = (max_batch, n_heads, max_seq, self.head_dim)
        self.register_buffer("cache_k", torch.zeros(shape), persistent=False)
        self.register_buffer("cache_v", torch.zeros(shape), persistent=False)
        self.seen = 0

    def reset(self):
        self.seen = 0

    def forward(self, x):
        B, C, D = x.shape
        q, k, v = self.wqkv(x).view(B, C, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        start = self.seen
        end = start + C
        self.cache_k[:B, :, start:end] = k
        self.cache_v[:B, :, start:end] = v
        self.seen = end

        keys = self.cache_k[:B, :, :end]
        values = self.cache_v[:B, :, :end]
        mask = chunk_mask(C, end, offset=self.seen, device=x.device)
        out = F.scaled_dot_product_attention(q, keys, values, attn_mask=mask)
        return self.wo(out.transpose(1, 2).reshape(B, C, D))


class Layer(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.norm1 = nn.RMSNorm(dim)
        self.attn = CachedSelfAttention(dim, n_heads, max_batch, max_seq)
        self.norm2 = nn.RMSNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class ChunkedDecoder(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_batch=4, max_seq=32, chunk=4):
        super().__init__()
        self.chunk = chunk
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_seq, dim)
        self.layers = nn.ModuleList(Layer(dim, n_heads, max_batch, max_seq) for _ in range(n_layers))
        self.norm = nn.RMSNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        for layer in self.layers:
            layer.attn.reset()
        outs = []
        for start in range(0, tokens.shape[1], self.chunk):
            ids = tokens[:, start : start + self.chunk]
            h = self.embed(ids) + self.pos(torch.arange(start, start + ids.shape[1], device=ids.device))
            for layer in self.layers:
                h = layer(h)
            outs.append(self.head(self.norm(h)))
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = ChunkedDecoder().eval()
    tokens = torch.randint(0, 64, (2, 10))
    return model, (tokens,)
