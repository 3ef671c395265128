import torch
import torch.nn as nn
import torch.nn.functional as F


class Norm(nn.Module):
    def __init__(self, d_model, eps=1e-5):
        super().__init__()
        self.alpha = nn.Parameter(torch.ones(d_model))
        self.bias = nn.Parameter(torch.zeros(d_model))
        self.eps = eps

    def forward(self, x):
        mu = x.mean(dim=0, keepdim=True)
        sigma2 = x.var(dim=0, keepdim=True, unbiased=False)
        return self.alpha * (x - mu) / torch.sqrt(sigma2 + self.eps) + self.bias


class EncoderLayer(nn.Module):
    def __init__(self, d_model, heads):
        super().__init__()
        self.norm_1 = Norm(d_model)
        self.norm_2 = Norm(d_model)
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))

    def forward(self, x, mask):
        x2 = self.norm_1(x)
        x = x + self.attn(x2, x2, x2, key_padding_mask=mask, need_weights=False)[0]
        return x + self.ff(self.norm_2(x))


class Encoder(nn.Module):
    def __init__(self, vocab=40, d_model=32, heads=4, N=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.pe = nn.Embedding(20, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, heads) for _ in range(N)])
        self.norm = Norm(d_model)

    def forward(self, src, mask):
        x = self.embed(src) + self.pe(torch.arange(src.size(1)))
        for layer in self.layers:
            x = layer(x, mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = Encoder().eval()
    src = torch.tensor([[4, 9, 17, 23, 30, 2], [7, 12, 5, 2, 0, 0], [33, 6, 19, 8, 2, 0]])
    mask = src == 0
    return model, (src, mask)
