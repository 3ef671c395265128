import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, heads, attn_drop=0.1, proj_drop=0.1):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.attn_drop = attn_drop
        self.proj_drop = proj_drop

    def forward(self, x, key_padding_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).reshape(B, T, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        a = (q @ k.transpose(-2, -1)) / math.sqrt(C // self.heads)
        a = a.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        a = F.softmax(a, dim=-1)
        a = F.dropout(a, p=self.attn_drop, training=self.training)
        y = (a @ v).transpose(1, 2).reshape(B, T, C)
        return F.dropout(self.proj(y), p=self.proj_drop, training=self.training)


class Layer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.attn = Attention(dim, heads)
        self.n1 = nn.LayerNorm(dim)
        self.n2 = nn.LayerNorm(dim)
        self.fc1 = nn.Linear(dim, 2 * dim)
        self.fc2 = nn.Linear(2 * dim, dim)

    def forward(self, x, kpm):
        x = x + self.attn(self.n1(x), kpm)
        h = F.dropout(F.gelu(self.fc1(self.n2(x))), p=0.2, training=self.training)
        return x + self.fc2(h)


class Model(nn.Module):
    def __init__(self, vocab=30, dim=32, heads=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=2)
        self.pos = nn.Embedding(16, dim)
        self.layers = nn.ModuleList([Layer(dim, heads), Layer(dim, heads)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, 4)

    def forward(self, tokens, key_padding_mask):
        x = F.dropout(self.emb(tokens) + self.pos(torch.arange(tokens.size(1))), p=0.1, training=self.training)
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        x = self.norm(x)
        keep = (~key_padding_mask).unsqueeze(-1).to(x.dtype)
        return self.head((x * keep).sum(1) / keep.sum(1))


def build():
    torch.manual_seed(0)
    model = Model().eval()
    tokens = torch.tensor([[5, 9, 14, 21, 2, 2], [7, 3, 11, 26, 18, 8]])
    key_padding_mask = tokens == 2
    return model, (tokens, key_padding_mask)
