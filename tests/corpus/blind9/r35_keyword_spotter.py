import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ConvSubsampling(nn.Module):
    def __init__(self, in_ch, d_model):
        super().__init__()
        self.conv1 = nn.Conv1d(in_ch, d_model, kernel_size=3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm1d(d_model)
        self.conv2 = nn.Conv1d(d_model, d_model, kernel_size=3, stride=1, padding=1)
        self.bn2 = nn.BatchNorm1d(d_model)

    def forward(self, x):
        x = F.silu(self.bn1(self.conv1(x)))
        x = F.silu(self.bn2(self.conv2(x)))
        return x.transpose(1, 2)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.ln1 = nn.LayerNorm(d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.SiLU(), nn.Linear(2 * d_model, d_model))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).reshape(B, T, 3, self.n_heads, C // self.n_heads).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v)
        x = x + self.proj(y.transpose(1, 2).reshape(B, T, C))
        return x + self.ff(self.ln2(x))


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=12, d_model=32, n_heads=4, n_layers=2, n_keywords=6, max_len=64):
        super().__init__()
        self.frontend = ConvSubsampling(n_mels, d_model)
        pe = torch.zeros(max_len, d_model)
        pos = torch.arange(max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("pe", pe)
        self.layers = nn.ModuleList([EncoderLayer(d_model, n_heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, n_keywords)

    def forward(self, mel):
        x = self.frontend(mel)
        x = x + self.pe[: x.size(1)].unsqueeze(0)
        for layer in self.layers:
            x = layer(x)
        return self.head(self.norm(x).mean(1))


def build():
    torch.manual_seed(0)
    model = KeywordSpotter()
    with torch.no_grad():
        for bn in (model.frontend.bn1, model.frontend.bn2):
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 2.0)
    model.eval()
    mel = torch.randn(3, 12, 20)
    return model, (mel,)
