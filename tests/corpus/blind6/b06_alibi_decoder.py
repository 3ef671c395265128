"""Causal decoder with ALiBi position biases instead of position embeddings."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def get_alibi_slopes(n_heads):
    # geometric sequence from the ALiBi paper, for a power-of-two number of heads
    start = 2 ** (-8 / n_heads)
    return torch.tensor([start ** (i + 1) for i in range(n_heads)])


class AlibiAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        self.register_buffer("slopes", get_alibi_slopes(n_heads), persistent=False)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        pos = torch.arange(T, device=x.device)
        rel = pos[None, :] - pos[:, None]  # j - i, <= 0 for visible keys
        bias = self.slopes[:, None, None] * rel
        bias = bias.masked_fill(rel > 0, float("-inf"))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias.unsqueeze(0))
        return self.out(out.transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = AlibiAttention(dim, n_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


class AlibiDecoder(nn.Module):
    def __init__(self, vocab=80, dim=32, n_heads=4, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        x = self.embed(input_ids)
        for blk in self.blocks:
            x = blk(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = AlibiDecoder().eval()
    input_ids = torch.randint(0, 80, (3, 8))
    return model, (input_ids,)
