"""Sparse Transformer "fixed" attention pattern for a byte-level language model.

Each query sees the earlier positions of its own block plus the last `c` "summary" positions
of every block before it. The combined pattern goes to SDPA as a boolean mask (True = attend).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def fixed_pattern(T, block, c, device=None):
    i = torch.arange(T, device=device).unsqueeze(1)
    j = torch.arange(T, device=device).unsqueeze(0)
    causal = j <= i
    same_block = (i // block) == (j // block)
    summary = (j % block) >= (block - c)
    return causal & (same_block | summary)


class FixedSparseSelfAttention(nn.Module):
    def __init__(self, dim, heads, block=4, c=1):
        super().__init__()
        self.heads, self.block, self.c = heads, block, c
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def _heads(self, t):
        B, T, D = t.shape
        return t.view(B, T, self.heads, D // self.heads).transpose(1, 2)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self._heads(self.to_q(x)), self._heads(self.to_k(x)), self._heads(self.to_v(x))
        mask = fixed_pattern(T, self.block, self.c, x.device)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.to_out(out.transpose(1, 2).contiguous().view(B, T, D))


class ByteLM(nn.Module):
    def __init__(self, dim=48, heads=4, depth=2, max_len=64):
        super().__init__()
        self.emb = nn.Embedding(256, dim)
        self.pos = nn.Parameter(torch.randn(1, max_len, dim) * 0.02)
        self.layers = nn.ModuleList()
        for _ in range(depth):
            self.layers.append(nn.ModuleList([
                nn.LayerNorm(dim), FixedSparseSelfAttention(dim, heads),
                nn.LayerNorm(dim), nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim)),
            ]))
        self.norm = nn.LayerNorm(dim)
        self.to_logits = nn.Linear(dim, 256)

    def forward(self, data):
        x = self.emb(data) + self.pos[:, : data.size(1)]
        for ln1, attn, ln2, ff in self.layers:
            x = x + attn(ln1(x))
            x = x + ff(ln2(x))
        return self.to_logits(self.norm(x))


def build():
    torch.manual_seed(0)
    model = ByteLM().eval()
    data = torch.randint(0, 256, (3, 20))
    return model, (data,)
