"""Sentence embedding encoder that masks scores with torch.where."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, valid):
        # valid: (B, S) bool, True for real tokens
        B, S, C = x.shape
        q, k, v = self.qkv(x).view(B, S, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-1, -2) * (C // self.heads) ** -0.5
        neg = torch.finfo(scores.dtype).min
        scores = torch.where(valid[:, None, None, :], neg, scores)
        attn = F.softmax(scores, dim=-1)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, S, C))


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x, valid):
        x = x + self.attn(self.norm1(x), valid)
        return x + self.ff(self.norm2(x))


class SentenceEmbedder(nn.Module):
    def __init__(self, vocab=70, dim=32, heads=4, depth=2, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(Layer(dim, heads) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids, valid):
        x = self.tok(input_ids) + self.pos(torch.arange(input_ids.shape[1], device=input_ids.device))
        for layer in self.layers:
            x = layer(x, valid)
        x = self.norm(x)
        w = valid.unsqueeze(-1).to(x.dtype)
        return F.normalize((x * w).sum(1) / w.sum(1), dim=-1)


def build():
    torch.manual_seed(0)
    model = SentenceEmbedder().eval()
    valid = torch.arange(8)[None, :] < torch.tensor([6, 3])[:, None]
    input_ids = torch.randint(1, 70, (2, 8)) * valid
    return model, (input_ids, valid)
