import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, attn_bias):
        b, n, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        o = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_bias)
        return self.proj(o.transpose(1, 2).reshape(b, n, d))


class Encoder(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, depth=2, n_out=5):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Parameter(torch.randn(1, 16, dim) * 0.02)
        self.attn = nn.ModuleList([SelfAttention(dim, heads) for _ in range(depth)])
        self.mlp = nn.ModuleList([nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(),
                                                nn.Linear(2 * dim, dim)) for _ in range(depth)])
        self.norm = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, n_out)

    def forward(self, tokens, pad_mask):
        x = self.tok(tokens) + self.pos[:, : tokens.size(1)]
        attn_bias = pad_mask[:, None, None, :].float() * float("-inf")
        for att, mlp, ln in zip(self.attn, self.mlp, self.norm):
            x = x + att(ln(x), attn_bias)
            x = x + mlp(x)
        return self.head(x)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    tokens = torch.tensor([[8, 3, 19, 27, 5, 0], [14, 22, 9, 0, 0, 0]])
    pad_mask = tokens == 0
    return model, (tokens, pad_mask)
