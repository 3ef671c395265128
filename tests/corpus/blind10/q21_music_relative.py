import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class RelativeGlobalAttention(nn.Module):
    """Music Transformer relative self-attention with the memory-efficient skewing trick."""

    def __init__(self, d=32, h=4, max_seq=32):
        super().__init__()
        self.h, self.dh, self.max_seq = h, d // h, max_seq
        self.Wq, self.Wk, self.Wv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.fc = nn.Linear(d, d)
        self.E = nn.Parameter(torch.randn(max_seq, self.dh) * 0.1)  # relative distances -(max_seq-1)..0

    @staticmethod
    def _skewing(t):
        padded = F.pad(t, [1, 0])
        reshaped = padded.reshape(padded.size(0), padded.size(1), padded.size(-1), padded.size(-2))
        return reshaped[:, :, 1:, :]

    def forward(self, x):
        B, L, _ = x.shape
        q = self.Wq(x).view(B, L, self.h, self.dh).transpose(1, 2)
        k = self.Wk(x).view(B, L, self.h, self.dh).transpose(1, 2)
        v = self.Wv(x).view(B, L, self.h, self.dh).transpose(1, 2)
        e = self.E[self.max_seq - L:]
        QE = torch.einsum("bhld,md->bhlm", q, e)
        lengths = torch.arange(L - 1, -1, -1)
        keep = (torch.arange(L)[:, None] >= lengths[None, :]).to(QE.dtype)  # mask the invalid upper-left part
        Srel = self._skewing(QE * keep)
        logits = (q @ k.transpose(-1, -2) + Srel) / math.sqrt(self.dh)
        future = torch.triu(torch.ones(L, L, dtype=torch.bool), 1)
        logits = logits.masked_fill(future, -1e9)
        w = F.softmax(logits, -1)
        out = (w @ v).transpose(1, 2).reshape(B, L, -1)
        return self.fc(out)


class MusicTransformer(nn.Module):
    def __init__(self, vocab=48, d=32, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.attn = nn.ModuleList(RelativeGlobalAttention(d) for _ in range(layers))
        self.ffn = nn.ModuleList(nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d)) for _ in range(layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(layers))
        self.out = nn.Linear(d, vocab)

    def forward(self, events):
        x = self.emb(events) * math.sqrt(self.emb.embedding_dim)
        for a, f, n1, n2 in zip(self.attn, self.ffn, self.ln1, self.ln2):
            x = n1(x + a(x))
            x = n2(x + f(x))
        return self.out(x)


def build():
    torch.manual_seed(0)
    model = MusicTransformer().eval()
    events = torch.randint(0, 48, (2, 12))
    return model, (events,)
