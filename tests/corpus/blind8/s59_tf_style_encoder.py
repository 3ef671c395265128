import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.dense = nn.Linear(d_model, d_model)

    def split_heads(self, x, batch_size):
        x = x.reshape(batch_size, -1, self.num_heads, self.depth)
        return x.permute(0, 2, 1, 3)

    def forward(self, x, padding_mask):
        batch_size = x.shape[0]
        q = self.split_heads(self.wq(x), batch_size)
        k = self.split_heads(self.wk(x), batch_size)
        v = self.split_heads(self.wv(x), batch_size)
        logits = torch.matmul(q, k.permute(0, 1, 3, 2)) / math.sqrt(self.depth)
        logits = logits.masked_fill(padding_mask[:, None, None, :], float("-inf"))
        weights = F.softmax(logits, 0)
        out = torch.matmul(weights, v).permute(0, 2, 1, 3)
        out = out.reshape(batch_size, -1, self.num_heads * self.depth)
        return self.dense(out)


class EncoderLayer(nn.Module):
    def __init__(self, d_model=32, num_heads=4, dff=64):
        super().__init__()
        self.mha = Attention(d_model, num_heads)
        self.ffn = nn.Sequential(nn.Linear(d_model, dff), nn.ReLU(), nn.Linear(dff, d_model))
        self.layernorm1 = nn.LayerNorm(d_model, eps=1e-6)
        self.layernorm2 = nn.LayerNorm(d_model, eps=1e-6)

    def forward(self, x, padding_mask):
        out1 = self.layernorm1(x + self.mha(x, padding_mask))
        return self.layernorm2(out1 + self.ffn(out1))


class Encoder(nn.Module):
    def __init__(self, vocab=40, d_model=32):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(16, d_model)
        self.enc_layers = nn.ModuleList([EncoderLayer(d_model) for _ in range(2)])

    def forward(self, x):
        padding_mask = x == 0
        h = self.embedding(x) * math.sqrt(32) + self.pos(torch.arange(x.shape[1]))
        for layer in self.enc_layers:
            h = layer(h, padding_mask)
        return h


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    x = torch.tensor([[5, 17, 30, 8, 12, 21], [9, 3, 26, 0, 0, 0], [14, 33, 7, 19, 0, 0]])
    return model, (x,)
