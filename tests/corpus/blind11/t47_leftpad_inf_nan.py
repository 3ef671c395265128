"""Batched generation-time forward of a small decoder on left-padded prompts, with an additive -inf mask."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def prepare_4d_causal_mask(attention_mask, dtype):
    B, T = attention_mask.shape
    causal = torch.full((T, T), float("-inf"), dtype=dtype).triu(1)
    padding = torch.zeros(B, 1, 1, T, dtype=dtype).masked_fill(attention_mask[:, None, None, :] == 0, float("-inf"))
    return causal[None, None] + padding


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.out = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, mask):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln1(x)).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5 + mask
        x = x + self.out((s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D))
        return x + self.mlp(self.ln2(x))


class Decoder(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_len=24):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, input_ids, attention_mask):
        position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
        x = self.tok(input_ids) + self.pos(position_ids)
        mask = prepare_4d_causal_mask(attention_mask, x.dtype)
        for b in self.blocks:
            x = b(x, mask)
        return self.head(self.ln_f(x))[:, -1]


def build():
    torch.manual_seed(0)
    T, lens = 10, [10, 7, 4]
    attention_mask = torch.zeros(3, T, dtype=torch.long)
    input_ids = torch.zeros(3, T, dtype=torch.long)
    for i, n in enumerate(lens):
        attention_mask[i, T - n :] = 1
        input_ids[i, T - n :] = torch.randint(1, 50, (n,))
    return Decoder().eval(), (input_ids, attention_mask)
