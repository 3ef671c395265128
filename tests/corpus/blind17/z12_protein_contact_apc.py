"""Unsupervised contact prediction from a protein LM's attention maps.

All heads' attention maps are stacked, symmetrized and corrected with the average product
correction (APC) before a logistic regression gives a contact probability per residue pair.
APC statistics are row/column means of each map over the real residues of the protein.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def symmetrize(x):
    return x + x.transpose(-1, -2)


def masked_apc(x, pair_mask):
    """x: (B, C, L, L); pair_mask: (B, 1, L, L) real-real pairs. Average product correction."""
    x = x * pair_mask
    n = pair_mask.sum(-1, keepdim=True).clamp(min=1)  # real residues per row
    a1 = x.sum(-1, keepdim=True)
    a2 = x.sum(-2, keepdim=True)
    a12 = x.sum((-1, -2), keepdim=True)
    corrected = x - a1 * a2 / a12.clamp(min=1e-8)
    return corrected * pair_mask


class MapAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.wq, self.wk, self.wv = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.wo = nn.Linear(d, d)

    def forward(self, x, pad):
        B, L, D = x.shape
        dh = D // self.h
        q = self.wq(x).unflatten(-1, (self.h, dh)).transpose(1, 2)
        k = self.wk(x).unflatten(-1, (self.h, dh)).transpose(1, 2)
        v = self.wv(x).unflatten(-1, (self.h, dh)).transpose(1, 2)
        s = torch.einsum("bhld,bhmd->bhlm", q, k) * dh ** -0.5
        s = s.masked_fill(pad[:, None, None, :], torch.finfo(s.dtype).min)
        p = s.softmax(-1)
        return self.wo(torch.einsum("bhlm,bhmd->bhld", p, v).transpose(1, 2).flatten(2)), p


class ContactPredictor(nn.Module):
    def __init__(self, vocab=25, d=32, heads=4, layers=3, pad_idx=1):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab, d, padding_idx=pad_idx)
        self.pos = nn.Embedding(64, d)
        self.attn = nn.ModuleList([MapAttention(d, heads) for _ in range(layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(d) for _ in range(layers)])
        self.regression = nn.Linear(layers * heads, 1)

    def forward(self, tokens):
        B, L = tokens.shape
        pad = tokens.eq(self.pad_idx)
        x = self.embed(tokens) + self.pos(torch.arange(L, device=tokens.device))
        maps = []
        for attn, norm in zip(self.attn, self.norms):
            y, p = attn(norm(x), pad)
            x = x + y
            maps.append(p)
        real = ~pad
        pair_mask = (real[:, :, None] & real[:, None, :]).unsqueeze(1).float()
        feats = masked_apc(symmetrize(torch.cat(maps, 1)), pair_mask)
        logits = self.regression(feats.permute(0, 2, 3, 1)).squeeze(-1)
        return torch.sigmoid(logits)


def build():
    torch.manual_seed(0)
    model = ContactPredictor().eval()
    toks = torch.randint(4, 25, (3, 14))
    toks[1, 10:] = 1
    toks[2, 6:] = 1
    return model, (toks,)
