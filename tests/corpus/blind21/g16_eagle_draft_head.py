"""EAGLE-style draft head for speculative decoding.

The draft model sees the target model's last hidden states and the token embeddings. At position t
it fuses the embedding of token t with the target feature of position t-1 and runs one causal
decoder layer, predicting the next token with the (frozen, shared) LM head of the target.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class DraftLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.norm1, self.norm2 = RMSNorm(dim), RMSNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.o = nn.Linear(dim, dim, bias=False)
        self.gate_up = nn.Linear(dim, 4 * dim, bias=False)
        self.down = nn.Linear(2 * dim, dim, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(self.norm1(x)).split(D, dim=-1)
        q, k, v = (t.view(B, T, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(a.transpose(1, 2).reshape(B, T, D))
        g, u = self.gate_up(self.norm2(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(g) * u)


class EagleDraftHead(nn.Module):
    def __init__(self, vocab=96, dim=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.fc = nn.Linear(2 * dim, dim, bias=False)
        self.layer = DraftLayer(dim, heads)
        self.norm = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)    # copied from the target and frozen
        self.lm_head.weight.requires_grad_(False)

    def shift_features(self, h):
        B, T, D = h.shape
        prev = F.pad(h.reshape(B * T, D)[:-1], (0, 0, 1, 0))
        return prev.view(B, T, D)

    def forward(self, input_ids, target_hidden):
        e = self.embed(input_ids)
        x = self.fc(torch.cat([e, self.shift_features(target_hidden)], dim=-1))
        x = self.layer(x)
        return self.lm_head(self.norm(x))


def build():
    torch.manual_seed(0)
    model = EagleDraftHead().eval()
    input_ids = torch.randint(0, 96, (3, 14))
    target_hidden = torch.randn(3, 14, 32)
    return model, (input_ids, target_hidden)
