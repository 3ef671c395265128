"""BLIP-2 style Q-Former in its image-grounded text generation mode.

Learned query tokens and caption tokens share one self-attention; the queries also read the
frozen image features through cross-attention. For generation the caption tokens may look
at every query token and at earlier caption tokens only.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class QFormerLayer(nn.Module):
    def __init__(self, d=32, heads=4, d_img=24):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.xq = nn.Linear(d, d)
        self.xkv = nn.Linear(d_img, 2 * d)
        self.xo = nn.Linear(d, d)
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def heads(self, t):
        B, L, D = t.shape
        return t.view(B, L, self.h, D // self.h).transpose(1, 2)

    def attend(self, q, k, v, mask=None):
        s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
        if mask is not None:
            s = s.masked_fill(~mask, float("-inf"))
        a = s.softmax(-1) @ v
        B, H, L, dh = a.shape
        return a.transpose(1, 2).reshape(B, L, H * dh)

    def forward(self, x, img, mask, n_query):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        x = self.ln1(x + self.o(self.attend(self.heads(q), self.heads(k), self.heads(v), mask)))
        qry = x[:, :n_query]
        k, v = self.xkv(img).chunk(2, dim=-1)
        qry = self.ln2(qry + self.xo(self.attend(self.heads(self.xq(qry)), self.heads(k), self.heads(v))))
        x = torch.cat([qry, x[:, n_query:]], dim=1)
        return self.ln3(x + self.ffn(x))


class QFormerCaptioner(nn.Module):
    def __init__(self, vocab=50, d=32, n_query=4, n_layers=2, d_img=24):
        super().__init__()
        self.n_query = n_query
        self.query_tokens = nn.Parameter(torch.randn(1, n_query, d) * 0.5)
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(32, d)
        self.layers = nn.ModuleList(QFormerLayer(d, 4, d_img) for _ in range(n_layers))
        self.lm_head = nn.Linear(d, vocab)

    def forward(self, image_embeds, input_ids):
        B, T = input_ids.shape
        Nq = self.n_query
        text = self.tok(input_ids) + self.pos(torch.arange(T, device=input_ids.device))
        x = torch.cat([self.query_tokens.expand(B, -1, -1), text], dim=1)
        L = Nq + T
        mask = torch.ones(L, L, dtype=torch.bool, device=x.device).tril()
        mask[:Nq, :] = True
        for layer in self.layers:
            x = layer(x, image_embeds, mask, Nq)
        return self.lm_head(x[:, Nq:])


def build():
    torch.manual_seed(0)
    model = QFormerCaptioner().eval()
    image_embeds = torch.randn(2, 9, 24)
    input_ids = torch.randint(0, 50, (2, 8))
    return model, (image_embeds, input_ids)
