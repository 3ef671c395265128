"""Instruction-tuned decoder on right-padded batches: causal and padding masks combined into one SDPA bool mask."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def build_attn_mask(attention_mask):
    """(B, T) 1 = real -> (B, 1, T, T) bool, True = may attend (SDPA's convention)"""
    T = attention_mask.size(1)
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=attention_mask.device))
    key_ok = attention_mask.bool()[:, None, None, :]
    return causal | key_ok


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.norm1, self.norm2 = nn.RMSNorm(dim), nn.RMSNorm(dim)
        self.q, self.kv, self.o = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim), nn.Linear(dim, dim)
        self.ffn = nn.Sequential(nn.Linear(dim, 3 * dim), nn.SiLU(), nn.Linear(3 * dim, dim))

    def forward(self, x, mask):
        B, T, D = x.shape
        h = self.norm1(x)
        q = self.q(h).view(B, T, self.h, -1).transpose(1, 2)
        k, v = self.kv(h).view(B, T, 2, self.h, -1).permute(2, 0, 3, 1, 4)
        x = x + self.o(F.scaled_dot_product_attention(q, k, v, attn_mask=mask).transpose(1, 2).reshape(B, T, D))
        return x + self.ffn(self.norm2(x))


class SFTModel(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, layers=2, max_len=24):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, dim), nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(Layer(dim, heads) for _ in range(layers))
        self.norm = nn.RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids, attention_mask):
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.size(1)))
        mask = build_attn_mask(attention_mask)
        for layer in self.layers:
            x = layer(x, mask)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    attention_mask = (torch.arange(12)[None] < torch.tensor([12, 9, 6])[:, None]).long()
    input_ids = torch.randint(1, 50, (3, 12)) * attention_mask
    return SFTModel().eval(), (input_ids, attention_mask)
