import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(q, k, v, mask):
    scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / math.sqrt(q.size(-1))
    scores = scores.masked_fill(~mask, float("-inf"))
    return torch.einsum("bhqk,bhkd->bhqd", scores.softmax(-1), v)


class MHA(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x, mem, mask):
        B, Tq, D = x.shape
        Tk = mem.size(1)
        q = self.wq(x).view(B, Tq, self.h, -1).transpose(1, 2)
        k = self.wk(mem).view(B, Tk, self.h, -1).transpose(1, 2)
        v = self.wv(mem).view(B, Tk, self.h, -1).transpose(1, 2)
        o = attention(q, k, v, mask).transpose(1, 2).reshape(B, Tq, D)
        return self.wo(o)


class EncLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.sa = MHA(d, h)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.n1, self.n2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, src_mask):
        h = self.n1(x)
        x = x + self.sa(h, h, src_mask)
        return x + self.ff(self.n2(x))


class DecLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.sa = MHA(d, h)
        self.ca = MHA(d, h)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.n1, self.n2, self.n3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, y, memory, tgt_mask, mem_mask):
        h = self.n1(y)
        y = y + self.sa(h, h, tgt_mask)
        y = y + self.ca(self.n2(y), memory, mem_mask)
        return y + self.ff(self.n3(y))


class Translator(nn.Module):
    def __init__(self, src_vocab=40, tgt_vocab=42, d=32, h=4, n=2, max_len=20):
        super().__init__()
        self.src_emb = nn.Embedding(src_vocab, d, padding_idx=0)
        self.tgt_emb = nn.Embedding(tgt_vocab, d, padding_idx=0)
        self.pos = nn.Embedding(max_len, d)
        self.enc = nn.ModuleList([EncLayer(d, h) for _ in range(n)])
        self.dec = nn.ModuleList([DecLayer(d, h) for _ in range(n)])
        self.enc_norm = nn.LayerNorm(d)
        self.dec_norm = nn.LayerNorm(d)
        self.out = nn.Linear(d, tgt_vocab)

    def forward(self, src, src_lengths, tgt):
        S, T = src.size(1), tgt.size(1)
        src_valid = torch.arange(S, device=src.device)[None, :] < src_lengths[:, None]
        src_mask = src_valid[:, None, None, :]
        tgt_mask = torch.tril(torch.ones(T, T, dtype=torch.bool, device=tgt.device))[None, None]
        x = self.src_emb(src) + self.pos(torch.arange(S, device=src.device))
        for layer in self.enc:
            x = layer(x, src_mask)
        memory = self.enc_norm(x)
        y = self.tgt_emb(tgt) + self.pos(torch.arange(T, device=tgt.device))
        for layer in self.dec:
            y = layer(y, memory, tgt_mask, src_mask)
        return self.out(self.dec_norm(y))


def build():
    torch.manual_seed(0)
    model = Translator().eval()
    src = torch.tensor([[5, 9, 13, 22, 7, 3, 2], [8, 11, 4, 2, 0, 0, 0]])
    src_lengths = torch.tensor([7, 4])
    tgt = torch.tensor([[1, 6, 17, 30, 12, 9], [1, 25, 14, 3, 0, 0]])
    return model, (src, src_lengths, tgt)
