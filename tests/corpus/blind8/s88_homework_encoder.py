import math
import torch
import torch.nn as nn


class Dropout(nn.Module):
    def __init__(self, p=0.1):
        super().__init__()
        self.p = p

    def forward(self, x):
        keep = (torch.rand_like(x) >= self.p).to(x.dtype)
        return x * keep / (1.0 - self.p)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, p=0.1):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.q_linear = nn.Linear(d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)
        self.dropout = Dropout(p)

    def forward(self, q, k, v, mask):
        bs = q.size(0)
        q = self.q_linear(q).view(bs, -1, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_linear(k).view(bs, -1, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_linear(v).view(bs, -1, self.n_heads, self.d_k).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        scores = scores.masked_fill(mask.unsqueeze(1) == 0, -1e9)
        scores = self.dropout(torch.softmax(scores, dim=-1))
        output = torch.matmul(scores, v)
        concat = output.transpose(1, 2).contiguous().view(bs, -1, self.n_heads * self.d_k)
        return self.out(concat)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.attn = MultiHeadAttention(d_model, heads)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), Dropout(0.1), nn.Linear(64, d_model))
        self.dropout_1 = Dropout(0.1)
        self.dropout_2 = Dropout(0.1)

    def forward(self, x, mask):
        x2 = self.norm_1(x)
        x = x + self.dropout_1(self.attn(x2, x2, x2, mask))
        x2 = self.norm_2(x)
        return x + self.dropout_2(self.ff(x2))


class Encoder(nn.Module):
    def __init__(self, vocab=40, d_model=32, heads=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pe = nn.Embedding(16, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, heads) for _ in range(2)])
        self.norm = nn.LayerNorm(d_model)

    def forward(self, src, src_mask):
        x = self.embed(src) + self.pe(torch.arange(src.size(1)))
        for layer in self.layers:
            x = layer(x, src_mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    src = torch.tensor([[1, 14, 7, 29, 3, 2, 0], [1, 22, 9, 2, 0, 0, 0]])
    src_mask = (src != 0).unsqueeze(-2)
    return model, (src, src_mask)
