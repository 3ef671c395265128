"""Music Transformer (Huang et al., 2018): relative global attention with the memory-efficient
"skewing" trick. Er holds one embedding per relative distance -(max_len-1) .. 0.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RelativeGlobalAttention(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.h, self.dh, self.max_len = n_heads, d_model // n_heads, max_len
        self.Wq = nn.Linear(d_model, d_model)
        self.Wk = nn.Linear(d_model, d_model)
        self.Wv = nn.Linear(d_model, d_model)
        self.fc = nn.Linear(d_model, d_model)
        self.Er = nn.Parameter(torch.randn(max_len, self.dh) * 0.1)

    @staticmethod
    def _skew(qe):
        padded = F.pad(qe, (1, 0))
        B, H, rows, cols = padded.shape
        return padded.reshape(B, H, cols, rows)[:, :, 1:, :]

    def forward(self, x):
        B, T, _ = x.shape
        q = self.Wq(x).view(B, T, self.h, self.dh).permute(0, 2, 1, 3)
        k = self.Wk(x).view(B, T, self.h, self.dh).permute(0, 2, 1, 3)
        v = self.Wv(x).view(B, T, self.h, self.dh).permute(0, 2, 1, 3)
        Er_t = self.Er[self.max_len - T:, :].transpose(0, 1)
        Srel = self._skew(torch.matmul(q, Er_t))
        logits = (torch.matmul(q, k.transpose(-2, -1)) + Srel) / math.sqrt(self.dh)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
        logits = logits.masked_fill(future, float("-inf"))
        out = torch.matmul(F.softmax(logits, dim=-1), v)
        return self.fc(out.permute(0, 2, 1, 3).reshape(B, T, -1))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, max_len):
        super().__init__()
        self.rga = RelativeGlobalAttention(d_model, n_heads, max_len)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, x):
        x = self.norm1(x + self.rga(x))
        return self.norm2(x + self.ff(x))


class MusicTransformer(nn.Module):
    def __init__(self, vocab=388, d_model=32, n_heads=4, n_layers=2, max_len=48):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList(DecoderLayer(d_model, n_heads, max_len) for _ in range(n_layers))
        self.fc = nn.Linear(d_model, vocab)

    def forward(self, events):
        x = self.embedding(events) * math.sqrt(self.embedding.embedding_dim)
        for layer in self.layers:
            x = layer(x)
        return self.fc(x)


def build():
    torch.manual_seed(0)
    model = MusicTransformer().eval()
    events = torch.randint(0, 388, (3, 20))
    return model, (events,)
