"""Fact verification over multiple evidence sentences (FEVER-style, GEAR/KGAT flavour).

Each (claim, evidence) pair is encoded separately; then the evidence representations attend to
each other (evidence aggregation) with a mask for the variable number of retrieved sentences."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class PairEncoder(nn.Module):
    def __init__(self, vocab, d, h):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(32, d)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, h, 2 * d, dropout=0.1, batch_first=True), 1, enable_nested_tensor=False)

    def forward(self, ids):
        pad = ids.eq(0)
        h = self.enc(self.emb(ids) + self.pos.weight[: ids.size(1)], src_key_padding_mask=pad)
        return h[:, 0]


class EvidenceAggregator(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, ev, ev_mask):
        # ev: (B, N, d); ev_mask: (B, N) bool, True = retrieved sentence
        B, N, D = ev.shape
        q, k, v = self.qkv(ev).view(B, N, 3, self.h, self.dk).unbind(2)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        att = torch.einsum("bhid,bhjd->bhij", q, k) / math.sqrt(self.dk)
        att = att.masked_fill(~ev_mask[:, None, :, None], -1e9)
        att = att.softmax(-1)
        out = torch.einsum("bhij,bhjd->bhid", att, v).transpose(1, 2).reshape(B, N, D)
        return self.norm(ev + self.o(out))


class FactVerifier(nn.Module):
    def __init__(self, vocab=160, d=32, h=4, n_labels=3):
        super().__init__()
        self.pair = PairEncoder(vocab, d, h)
        self.agg = EvidenceAggregator(d, h)
        self.cls = nn.Linear(d, n_labels)

    def forward(self, pair_ids, ev_mask):
        B, N, L = pair_ids.shape
        ev = self.pair(pair_ids.view(B * N, L)).view(B, N, -1)
        ev = self.agg(ev, ev_mask)
        m = ev_mask.unsqueeze(-1).float()
        return self.cls((ev * m).sum(1) / m.sum(1))


def build():
    torch.manual_seed(0)
    model = FactVerifier().eval()
    pair_ids = torch.randint(1, 160, (3, 5, 10))
    pair_ids[:, :, 8:] = 0
    ev_mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1], [1, 1, 0, 0, 0]], dtype=torch.bool)
    return model, (pair_ids, ev_mask)
