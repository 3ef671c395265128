"""Final project: symbolic music generation over MIDI-like event tokens
(note-on, note-off, time-shift, velocity), decoder-only transformer.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedSelfAttention(nn.Module):
    def __init__(self, d_model, n_head, max_len):
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(d_model, 3 * d_model)
        self.c_proj = nn.Linear(d_model, d_model)
        mask = torch.tril(torch.ones(max_len, max_len)).view(1, 1, max_len, max_len)
        self.register_buffer("mask", mask)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(C, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)   # (B, nh, T, hs)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))   # (B, nh, T, T)
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, -1e9)
        att = F.softmax(att, dim=1)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, d_model, n_head, max_len):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d_model)
        self.attn = MaskedSelfAttention(d_model, n_head, max_len)
        self.ln_2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, 4 * d_model), nn.GELU(), nn.Linear(4 * d_model, d_model))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class MidiTransformer(nn.Module):
    N_EVENTS = 128 + 128 + 32 + 32  # note-on, note-off, time-shift, velocity

    def __init__(self, d_model=32, n_head=4, n_layer=2, max_len=16):
        super().__init__()
        self.event_emb = nn.Embedding(self.N_EVENTS, d_model)
        self.pos_emb = nn.Embedding(max_len, d_model)
        self.blocks = nn.ModuleList([Block(d_model, n_head, max_len) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, self.N_EVENTS, bias=False)

    def forward(self, events):
        T = events.size(1)
        x = self.event_emb(events) + self.pos_emb(torch.arange(T, device=events.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_f(x))


def build():
    torch.manual_seed(38)
    model = MidiTransformer().eval()
    return model, (torch.randint(0, MidiTransformer.N_EVENTS, (2, 14)),)
