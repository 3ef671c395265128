"""Longformer-style encoder for question answering: sliding-window attention plus global tokens.

Every token attends to neighbours within `radius`; tokens flagged in global_mask (the [CLS]
and the question) attend to every real token and are attended to by every token. Padding is
removed from both the local and the global pattern. Written densely with a (B, T, T)
visibility mask.
"""
import math

import torch
import torch.nn as nn


class LongformerSelfAttention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.h, self.dh = heads, d // heads
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        # separate projections for global attention, as in Longformer
        self.q_g, self.k_g, self.v_g = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)
        self.o = nn.Linear(d, d)

    def split(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.h, self.dh).transpose(1, 2)

    def forward(self, x, local_ok, global_rows, key_real):
        B, T, D = x.shape
        q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
        s = q @ k.transpose(-1, -2) / math.sqrt(self.dh)
        s = s.masked_fill(~local_ok[:, None], float("-inf"))
        out = s.softmax(-1) @ v                                              # local + attend-to-global
        qg, kg, vg = self.split(self.q_g(x)), self.split(self.k_g(x)), self.split(self.v_g(x))
        sg = qg @ kg.transpose(-1, -2) / math.sqrt(self.dh)
        sg = sg.masked_fill(~key_real[:, None, None, :], float("-inf"))
        out_g = sg.softmax(-1) @ vg                                          # global rows see all real keys
        out = torch.where(global_rows[:, None, :, None], out_g, out)
        return self.o(out.transpose(1, 2).reshape(B, T, D))


class LongformerQA(nn.Module):
    def __init__(self, vocab=80, d=32, n_layers=2, radius=2):
        super().__init__()
        self.radius = radius
        self.emb = nn.Embedding(vocab, d, padding_idx=1)
        self.pos = nn.Embedding(32, d)
        self.attn = nn.ModuleList(LongformerSelfAttention(d) for _ in range(n_layers))
        self.ff = nn.ModuleList(nn.Sequential(nn.Linear(d, 64), nn.GELU(), nn.Linear(64, d)) for _ in range(n_layers))
        self.ln1 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.ln2 = nn.ModuleList(nn.LayerNorm(d) for _ in range(n_layers))
        self.qa = nn.Linear(d, 2)

    def forward(self, input_ids, attention_mask, global_mask):
        B, T = input_ids.shape
        key_real = attention_mask.bool()
        is_global = global_mask.bool() & key_real
        idx = torch.arange(T, device=input_ids.device)
        band = (idx[None, :] - idx[:, None]).abs() <= self.radius
        local_ok = (band[None] | is_global[:, None, :]) & key_real[:, None, :]
        x = self.emb(input_ids) + self.pos(idx)
        for attn, ff, ln1, ln2 in zip(self.attn, self.ff, self.ln1, self.ln2):
            x = ln1(x + attn(x, local_ok, is_global, key_real))
            x = ln2(x + ff(x))
        start, end = self.qa(x).unbind(-1)
        return torch.stack([start, end], dim=-1).masked_fill(~key_real[..., None], -1e4)


def build():
    torch.manual_seed(0)
    model = LongformerQA().eval()
    ids = torch.randint(3, 80, (3, 14))
    attention_mask = torch.ones(3, 14, dtype=torch.long)
    attention_mask[1, 10:] = 0
    attention_mask[2, 7:] = 0
    ids[attention_mask == 0] = 1
    global_mask = torch.zeros(3, 14, dtype=torch.long)
    global_mask[0, :4] = 1          # [CLS] + 3 question tokens
    global_mask[1, :3] = 1          # [CLS] + 2 question tokens
    global_mask[2, :2] = 1          # [CLS] + 1 question token
    return model, (ids, attention_mask, global_mask)
