"""Causal LM with a hand-written, max-subtracted masked softmax over right-padded batches."""
import torch
import torch.nn as nn


class ManualAttention(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.scale = self.head_dim**-0.5
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)

    def forward(self, x, allowed):
        # allowed: (B, 1, T, T) bool
        B, T, C = x.shape
        q = (self.q(x) * self.scale).view(B, T, self.n_heads, -1).transpose(1, 2)
        k = self.k(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        v = self.v(x).view(B, T, self.n_heads, -1).transpose(1, 2)
        scores = q @ k.transpose(-1, -2)
        row_max = scores.masked_fill(~allowed, float("-inf")).amax(dim=-1, keepdim=True)
        weights = torch.exp(scores - row_max) * allowed
        weights = weights / weights.sum(dim=-1, keepdim=True)
        return self.o((weights @ v).transpose(1, 2).reshape(B, T, C))


class Block(nn.Module):
    def __init__(self, dim, n_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = ManualAttention(dim, n_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, allowed):
        x = x + self.attn(self.ln1(x), allowed)
        return x + self.mlp(self.ln2(x))


class ManualSoftmaxLM(nn.Module):
    def __init__(self, vocab=64, dim=32, n_heads=4, n_layers=2, max_len=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.wpe = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, n_heads) for _ in range(n_layers))
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        B, T = input_ids.shape
        causal = torch.ones(T, T, dtype=torch.bool, device=input_ids.device).tril()
        allowed = (causal & attention_mask[:, None, :].bool()).unsqueeze(1)
        x = self.wte(input_ids) + self.wpe(torch.arange(T, device=input_ids.device))
        for blk in self.blocks:
            x = blk(x, allowed)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(0)
    model = ManualSoftmaxLM().eval()
    attention_mask = (torch.arange(9)[None, :] < torch.tensor([9, 6])[:, None]).long()
    input_ids = torch.randint(1, 64, (2, 9)) * attention_mask
    return model, (input_ids, attention_mask)
