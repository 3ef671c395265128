"""Collective entity linking: the candidate entities of a document attend to one another so
coherent candidates reinforce each other, then each candidate is scored against its mention.

Documents have different numbers of candidates; `cand_mask` is 1 for a real candidate.
"""
import math

import torch
import torch.nn as nn


class CandidateCoherence(nn.Module):
    def __init__(self, d, heads=2):
        super().__init__()
        self.h, self.dk = heads, d // heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def _fold(self, t):
        """(B, C, d) -> (B * h, C, d_k), heads folded into the batch like nn.MultiheadAttention"""
        B, C, _ = t.shape
        return t.view(B, C, self.h, self.dk).transpose(1, 2).reshape(B * self.h, C, self.dk)

    def forward(self, ent, cand_mask):  # ent: (B, C, d)
        B, C, d = ent.shape
        q, k, v = self._fold(self.q(ent)), self._fold(self.k(ent)), self._fold(self.v(ent))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.dk)  # (B * h, C, C)
        key_pad = (cand_mask == 0).unsqueeze(1).repeat(self.h, 1, 1)  # (B * h, 1, C)
        scores = scores.masked_fill(key_pad, -1e4)
        att = torch.softmax(scores, dim=-1)
        out = torch.bmm(att, v).view(B, self.h, C, self.dk).transpose(1, 2).reshape(B, C, d)
        return ent + self.o(out)


class CollectiveLinker(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.ent_proj = nn.Linear(48, d)
        self.ment_proj = nn.Linear(24, d)
        self.coherence = nn.ModuleList([CandidateCoherence(d), CandidateCoherence(d)])
        self.norm = nn.LayerNorm(d)
        self.prior_w = nn.Parameter(torch.tensor(1.0))

    def forward(self, ent_feats, mention_feats, prior, cand_mask):
        e = self.ent_proj(ent_feats)
        for layer in self.coherence:
            e = layer(e, cand_mask)
        e = self.norm(e)
        m = self.ment_proj(mention_feats)  # (B, C, d): the mention each candidate belongs to
        score = (e * m).sum(-1) / math.sqrt(e.size(-1)) + self.prior_w * prior.clamp_min(1e-6).log()
        return score.masked_fill(cand_mask == 0, -1e4)


def build():
    torch.manual_seed(0)
    model = CollectiveLinker().eval()
    B, C = 3, 10
    ent_feats = torch.randn(B, C, 48)
    mention_feats = torch.randn(B, C, 24)
    prior = torch.rand(B, C)
    cand_mask = torch.ones(B, C, dtype=torch.long)
    cand_mask[0, 7:] = 0
    cand_mask[2, 4:] = 0
    return model, (ent_feats, mention_feats, prior, cand_mask)
