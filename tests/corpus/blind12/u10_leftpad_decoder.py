"""Batched prompt scoring with a GPT-style decoder on left-padded prompts.

Prompts are left padded so that the last column holds every prompt's last token. Positions
are counted from each prompt's first real token. Queries see keys that are real and not in
their future. A padded query would see no key at all; it is allowed to attend to itself so
its row stays finite (its output is never used).
"""
import math

import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_embd, n_embd)
        self.key = nn.Linear(n_embd, n_embd)
        self.value = nn.Linear(n_embd, n_embd)
        self.proj = nn.Linear(n_embd, n_embd)

    def forward(self, x, allowed):
        B, T, C = x.size()
        hs = C // self.n_head
        k = self.key(x).view(B, T, self.n_head, hs).transpose(1, 2)
        q = self.query(x).view(B, T, self.n_head, hs).transpose(1, 2)
        v = self.value(x).view(B, T, self.n_head, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(~allowed[:, None], float("-inf"))
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x, allowed):
        x = x + self.attn(self.ln1(x), allowed)
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab_size=50, block_size=16, n_layer=2, n_head=4, n_embd=32):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, attention_mask):
        B, T = idx.shape
        real = attention_mask.bool()
        positions = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        causal = torch.ones(T, T, dtype=torch.bool, device=idx.device).tril()
        allowed = causal[None] & real[:, None, :]
        allowed = allowed | torch.eye(T, dtype=torch.bool, device=idx.device)
        x = self.tok_emb(idx) + self.pos_emb(positions)
        for block in self.blocks:
            x = block(x, allowed)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(10)
    model = GPT().eval()
    idx = torch.randint(1, 50, (3, 10))
    attention_mask = torch.ones(3, 10, dtype=torch.long)
    attention_mask[1, :4] = 0
    attention_mask[2, :7] = 0
    idx = idx.masked_fill(attention_mask == 0, 0)
    return model, (idx, attention_mask)
