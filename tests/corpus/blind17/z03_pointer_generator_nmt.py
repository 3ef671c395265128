"""Transformer pointer-generator for low-resource translation with a shared subword vocabulary.

The decoder mixes a generation distribution with a copy distribution built from its
cross-attention over the source tokens (See et al., 2017, on top of a Transformer).
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, mem, mem_pad):
        B, T, D = x.shape
        S = mem.size(1)
        dh = D // self.h
        q = self.q(x).view(B, T, self.h, dh).transpose(1, 2)
        k, v = self.kv(mem).view(B, S, 2, self.h, dh).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / math.sqrt(dh)
        s = s.masked_fill(mem_pad[:, None, None, :], float("-inf"))
        a = s.softmax(-1)
        ctx = (a @ v).transpose(1, 2).reshape(B, T, D)
        return self.o(ctx), a.mean(1)  # head-averaged alignment (B, T, S)


class PointerGeneratorTransformer(nn.Module):
    def __init__(self, vocab=80, d=48, heads=4, pad_id=0, max_len=64):
        super().__init__()
        self.pad_id, self.vocab = pad_id, vocab
        self.embed = nn.Embedding(vocab, d, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d)
        enc_layer = nn.TransformerEncoderLayer(d, heads, 2 * d, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, 1, enable_nested_tensor=False)
        self.self_attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)
        self.cross = CrossAttention(d, heads)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.gen_gate = nn.Linear(3 * d, 1)

    def embed_with_pos(self, ids):
        return self.embed(ids) * math.sqrt(self.embed.embedding_dim) + self.pos(torch.arange(ids.size(1), device=ids.device))

    def forward(self, src, tgt_in):
        src_pad = src.eq(self.pad_id)
        memory = self.encoder(self.embed_with_pos(src), src_key_padding_mask=src_pad)
        y = self.embed_with_pos(tgt_in)
        T = tgt_in.size(1)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=src.device), 1)
        h = self.ln1(y)
        x = y + self.self_attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        context, align = self.cross(self.ln2(x), memory, src_pad)
        x = x + context
        x = x + self.ff(self.ln3(x))
        vocab_dist = F.softmax(x @ self.embed.weight.t(), dim=-1)
        p_gen = torch.sigmoid(self.gen_gate(torch.cat([memory, x, y], dim=-1)))
        copy_dist = torch.zeros_like(vocab_dist).scatter_add_(2, src.unsqueeze(1).expand(-1, T, -1), align)
        return torch.log(p_gen * vocab_dist + (1 - p_gen) * copy_dist + 1e-12)


def build():
    torch.manual_seed(0)
    model = PointerGeneratorTransformer().eval()
    src = torch.randint(3, 80, (2, 10))
    src[1, 7:] = 0
    tgt_in = torch.randint(3, 80, (2, 10))
    return model, (src, tgt_in)
