"""Right-padded causal language model with an explicit attention mask."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedCausalAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, attention_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        key_ok = attention_mask[:, None, None, :].bool()
        allowed = causal | key_ok
        scores = scores.masked_fill(~allowed, float("-inf"))
        probs = F.softmax(scores, dim=-1)
        out = (probs @ v).transpose(1, 2).reshape(B, T, C)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = MaskedCausalAttention(dim, n_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, attention_mask):
        x = x + self.attn(self.ln1(x), attention_mask)
        return x + self.mlp(self.ln2(x))


class PaddedCausalLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        T = input_ids.shape[1]
        x = self.wte(input_ids) + self.wpe(torch.arange(T, device=input_ids.device))
        for blk in self.blocks:
            x = blk(x, attention_mask)
        return self.lm_head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = PaddedCausalLM().eval()
    attention_mask = (torch.arange(10)[None, :] < torch.tensor([10, 7])[:, None]).long()
    input_ids = torch.randint(1, 64, (2, 10)) * attention_mask
    return model, (input_ids, attention_mask)
