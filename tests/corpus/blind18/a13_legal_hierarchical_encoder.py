"""Hierarchical transformer for long legal judgments (case outcome prediction).

A document is a (sentences x tokens) grid of word ids, 0 = padding. A shallow token-level
encoder turns every sentence into a vector; a document-level encoder then contextualises the
sentence vectors. Documents have different numbers of sentences, so whole rows of the grid
can be padding.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, key_pad):  # x: (N, L, d), key_pad: (N, L) True = padding
        N, L, d = x.shape
        q, k, v = self.qkv(x).view(N, L, 3, self.h, d // self.h).unbind(2)
        s = torch.einsum("nqhc,nkhc->nhqk", q, k) / math.sqrt(d // self.h)
        s = s.masked_fill(key_pad[:, None, None, :], float("-inf"))
        a = s.softmax(-1)
        return self.o(torch.einsum("nhqk,nkhc->nqhc", a, v).reshape(N, L, d))


class Layer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn, self.n1 = SelfAttention(d, heads), nn.LayerNorm(d)
        self.ff, self.n2 = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d)), nn.LayerNorm(d)

    def forward(self, x, key_pad):
        x = self.n1(x + self.attn(x, key_pad))
        return self.n2(x + self.ff(x))


class HierarchicalLegalClassifier(nn.Module):
    def __init__(self, vocab=300, d=32, heads=4, max_tokens=16, max_sents=12, n_labels=3):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, d)
        self.tok_pos = nn.Embedding(max_tokens, d)
        self.sent_pos = nn.Embedding(max_sents, d)
        self.word_layer = Layer(d, heads)
        self.sent_layer = Layer(d, heads)
        self.cls = nn.Linear(d, n_labels)

    def forward(self, doc):  # (B, S, L)
        B, S, L = doc.shape
        tok_pad = (doc == PAD).view(B * S, L)
        empty = tok_pad.all(-1, keepdim=True)
        # an all-padding sentence attends over its own pad slots; it is dropped at the document level
        word_pad = tok_pad & ~empty
        x = self.tok_emb(doc.view(B * S, L)) + self.tok_pos.weight[:L]
        x = self.word_layer(x, word_pad)
        keep = (~tok_pad).unsqueeze(-1).float()
        sent = (x * keep).sum(1) / keep.sum(1).clamp(min=1.0)
        sent = sent.view(B, S, -1) + self.sent_pos.weight[:S]
        sent_pad = empty.view(B, S)
        h = self.sent_layer(sent, sent_pad)
        real = (~sent_pad).unsqueeze(-1).float()
        return self.cls((h * real).sum(1) / real.sum(1))


def build():
    torch.manual_seed(0)
    model = HierarchicalLegalClassifier().eval()
    doc = torch.randint(1, 300, (3, 6, 10))
    doc[0, 4:] = PAD
    doc[0, 1, 7:] = PAD
    doc[1, :, 8:] = PAD
    doc[2, 2:] = PAD
    doc[2, 1, 3:] = PAD
    return model, (doc,)
