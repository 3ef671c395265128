import math
import torch
import torch.nn as nn


class KeyMajorAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        q = self.wq(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        scores = torch.matmul(k, q.transpose(-1, -2)) / math.sqrt(self.d_head)
        scores = scores.masked_fill(pad_mask[:, None, :, None], float("-inf"))
        weights = torch.softmax(scores, dim=-2)
        out = torch.matmul(weights.transpose(-1, -2), v)
        return self.wo(out.transpose(1, 2).reshape(B, T, D))


class Encoder(nn.Module):
    def __init__(self, vocab=45, d_model=32, n_heads=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=0)
        self.pos = nn.Embedding(16, d_model)
        self.att1 = KeyMajorAttention(d_model, n_heads)
        self.att2 = KeyMajorAttention(d_model, n_heads)
        self.ln = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.GELU(), nn.Linear(64, d_model))

    def forward(self, tokens, pad_mask):
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1)))
        x = self.ln[0](x + self.att1(x, pad_mask))
        x = self.ln[1](x + self.ff(x))
        return self.ln[2](x + self.att2(x, pad_mask))


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    tokens = torch.tensor([[3, 19, 8, 27, 11, 0, 0], [40, 5, 16, 2, 9, 33, 21]])
    pad_mask = tokens == 0
    return model, (tokens, pad_mask)
