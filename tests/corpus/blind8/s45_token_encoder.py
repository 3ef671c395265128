import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, h):
        super().__init__()
        self.h = h
        self.d_k = d_model // h
        self.proj_q = nn.Linear(d_model, d_model)
        self.proj_k = nn.Linear(d_model, d_model)
        self.proj_v = nn.Linear(d_model, d_model)
        self.proj_o = nn.Linear(d_model, d_model)

    def forward(self, x, key_padding_mask):
        n, t, _ = x.shape
        q = self.proj_q(x).view(n, t, self.h, self.d_k).transpose(1, 2)
        k = self.proj_k(x).view(n, t, self.h, self.d_k).transpose(1, 2)
        v = self.proj_v(x).view(n, t, self.h, self.d_k).transpose(1, 2)
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        att = att.masked_fill(~key_padding_mask[:, None, None, :], float("-inf"))
        att = F.softmax(att, dim=-1)
        out = torch.matmul(att, v).transpose(1, 2).contiguous().view(n, t, -1)
        return self.proj_o(out)


class Block(nn.Module):
    def __init__(self, d_model, h):
        super().__init__()
        self.mha = MultiHeadAttention(d_model, h)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))

    def forward(self, x, key_padding_mask):
        x = x + self.mha(self.ln1(x), key_padding_mask)
        return x + self.ff(self.ln2(x))


class Model(nn.Module):
    def __init__(self, vocab=40, d_model=32, h=4, pad_id=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=pad_id)
        self.pos = nn.Embedding(16, d_model)
        self.blocks = nn.ModuleList([Block(d_model, h), Block(d_model, h)])
        self.norm = nn.LayerNorm(d_model)

    def forward(self, tokens, key_padding_mask):
        x = self.emb(tokens) + self.pos(torch.arange(tokens.size(1), device=tokens.device))
        for blk in self.blocks:
            x = blk(x, key_padding_mask)
        return self.norm(x)


def build():
    torch.manual_seed(0)
    model = Model().eval()
    tokens = torch.tensor([[12, 7, 25, 31, 9, 3, 3], [20, 14, 6, 3, 3, 3, 3]])
    key_padding_mask = tokens == 3
    return model, (tokens, key_padding_mask)
