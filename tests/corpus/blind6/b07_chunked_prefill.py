"""Multi-query attention decoder that prefills its KV cache chunk by chunk."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiQueryAttention(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.q_proj = nn.Linear(dim, dim, bias=False)
        self.k_proj = nn.Linear(dim, self.head_dim, bias=False)
        self.v_proj = nn.Linear(dim, self.head_dim, bias=False)
        self.o_proj = nn.Linear(dim, dim, bias=False)
        self.register_buffer("k_cache", torch.zeros(max_batch, 1, max_seq, self.head_dim), persistent=False)
        self.register_buffer("v_cache", torch.zeros(max_batch, 1, max_seq, self.head_dim), persistent=False)

    def forward(self, x, start):
        B, C, _ = x.shape
        q = self.q_proj(x).view(B, C, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).unsqueeze(1)
        v = self.v_proj(x).unsqueeze(1)

        idx = torch.arange(start, start + C, device=x.device)
        self.k_cache[:B].index_copy_(2, idx, k)
        self.v_cache[:B].index_copy_(2, idx, v)

        end = start + C
        keys = self.k_cache[:B, :, :end].expand(B, self.n_heads, end, self.head_dim)
        values = self.v_cache[:B, :, :end].expand(B, self.n_heads, end, self.head_dim)

        # query i of this chunk sits at absolute position start + i
        k_pos = torch.arange(end, device=x.device)
        mask = k_pos[None, :] <= idx[:, None]
        out = F.scaled_dot_product_attention(q, keys, values, attn_mask=mask)
        return self.o_proj(out.transpose(1, 2).reshape(B, C, -1))


class Layer(nn.Module):
    def __init__(self, dim, n_heads, max_batch, max_seq):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = MultiQueryAttention(dim, n_heads, max_batch, max_seq)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, start):
        x = x + self.attn(self.norm1(x), start)
        return x + self.mlp(self.norm2(x))


class ChunkedPrefillLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_batch=4, max_seq=32, chunk_size=3):
        super().__init__()
        self.chunk_size = chunk_size
        self.embed = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_seq, dim)
        self.layers = nn.ModuleList(Layer(dim, n_heads, max_batch, max_seq) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, tokens):
        outs = []
        for start in range(0, tokens.shape[1], self.chunk_size):
            chunk = tokens[:, start : start + self.chunk_size]
            positions = torch.arange(start, start + chunk.shape[1], device=tokens.device)
            h = self.embed(chunk) + self.pos(positions)
            for layer in self.layers:
                h = layer(h, start)
            outs.append(self.head(self.norm(h)))
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = ChunkedPrefillLM().eval()
    tokens = torch.randint(0, 64, (2, 8))
    return model, (tokens,)
