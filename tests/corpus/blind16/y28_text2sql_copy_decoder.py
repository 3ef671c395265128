"""Encoder-decoder text-to-SQL model with a pointer-generator copy mechanism.

The decoder mixes a vocabulary distribution with a copy distribution over the question tokens
(the cross-attention weights of the last layer). The generation probability p_gen is predicted
from the decoder state and its cross-attention context.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.mha = nn.MultiheadAttention(dim, heads, batch_first=True)

    def forward(self, x, mem, mem_pad):
        ctx, w = self.mha(x, mem, mem, key_padding_mask=mem_pad, need_weights=True, average_attn_weights=True)
        return ctx, w


class CopyDecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.cross = CrossAttention(dim, heads)
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, dim))

    def forward(self, y, mem, mem_pad, causal):
        h = self.n1(y)
        y = y + self.self_attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        ctx, w = self.cross(self.n2(y), mem, mem_pad)
        y = y + ctx
        return y + self.ff(self.n3(y)), ctx, w


class Text2SQL(nn.Module):
    def __init__(self, vocab=90, dim=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        enc_layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, layers, enable_nested_tensor=False)
        self.decoder = nn.ModuleList([CopyDecoderLayer(dim, heads) for _ in range(layers)])
        self.out = nn.Linear(dim, vocab)
        self.p_gen = nn.Linear(2 * dim, 1)

    def forward(self, src, tgt):
        S, T = src.size(1), tgt.size(1)
        src_pad = src.eq(0)
        enc = self.encoder(self.embed(src) + self.pos.weight[:S], src_key_padding_mask=src_pad)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=src.device), 1)
        y = self.embed(tgt) + self.pos.weight[:T]
        for layer in self.decoder:
            y, ctx, w = layer(y, enc, src_pad, causal)
        vocab_dist = F.softmax(self.out(y), dim=-1)
        p_gen = torch.sigmoid(self.p_gen(torch.cat([y, enc], dim=-1)))
        copy_dist = torch.zeros_like(vocab_dist).scatter_add(-1, src.unsqueeze(1).expand(-1, T, -1), w)
        return torch.log(p_gen * vocab_dist + (1 - p_gen) * copy_dist + 1e-10)


def build():
    torch.manual_seed(0)
    model = Text2SQL().eval()
    src = torch.randint(1, 90, (2, 12))
    src[1, 9:] = 0
    tgt = torch.randint(1, 90, (2, 12))
    return model, (src, tgt)
