"""Small sequence-first encoder-decoder for transliteration (fairseq-style tensors, (T, B, C)).

Source and target batches are padded on the right; the collator passes the key padding
masks (B, S) and (B, T), True at padding, with the same convention as nn.Transformer. The
encoder masks source padding; the decoder combines a causal mask with the target padding
mask, and its cross-attention reads the encoder memory.
"""
import math

import torch
import torch.nn as nn

PAD = 0


def sinusoid_table(n, d):
    pos = torch.arange(n).float()[:, None]
    div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    table = torch.zeros(n, 1, d)
    table[:, 0, 0::2] = torch.sin(pos * div)
    table[:, 0, 1::2] = torch.cos(pos * div)
    return table


class EncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, heads)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, src_pad):
        h = self.ln1(x)
        x = x + self.self_attn(h, h, h, key_padding_mask=src_pad, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, heads)
        self.cross_attn = nn.MultiheadAttention(d, heads)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, y, memory, causal, src_pad, tgt_pad):
        h = self.ln1(y)
        y = y + self.self_attn(h, h, h, attn_mask=causal, key_padding_mask=tgt_pad, need_weights=False)[0]
        h = self.ln2(y)
        y = y + self.cross_attn(h, memory, memory, key_padding_mask=tgt_pad, need_weights=False)[0]
        return y + self.ff(self.ln3(y))


class Seq2Seq(nn.Module):
    def __init__(self, src_vocab=40, tgt_vocab=40, d=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.d = d
        self.src_emb = nn.Embedding(src_vocab, d, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(tgt_vocab, d, padding_idx=PAD)
        self.register_buffer("pe", sinusoid_table(max_len, d))
        self.enc = nn.ModuleList([EncoderLayer(d, heads) for _ in range(layers)])
        self.dec = nn.ModuleList([DecoderLayer(d, heads) for _ in range(layers)])
        self.ln_enc, self.ln_dec = nn.LayerNorm(d), nn.LayerNorm(d)
        self.generator = nn.Linear(d, tgt_vocab)

    def embed(self, table, tokens):
        return table(tokens) * math.sqrt(self.d) + self.pe[: tokens.size(0)]

    def forward(self, src, tgt, src_pad, tgt_pad):
        # src: (S, B), tgt: (T, B); src_pad: (B, S), tgt_pad: (B, T)
        T = tgt.size(0)
        causal = torch.triu(torch.ones(T, T, dtype=torch.bool, device=tgt.device), diagonal=1)

        memory = self.embed(self.src_emb, src)
        for layer in self.enc:
            memory = layer(memory, src_pad)
        memory = self.ln_enc(memory)

        y = self.embed(self.tgt_emb, tgt)
        for layer in self.dec:
            y = layer(y, memory, causal, src_pad, tgt_pad)
        return self.generator(self.ln_dec(y))


def build():
    torch.manual_seed(9)
    model = Seq2Seq().eval()
    src = torch.randint(1, 40, (8, 2))
    tgt = torch.randint(1, 40, (8, 2))
    src[5:, 0] = PAD   # source 0 has 5 tokens, source 1 has 8
    tgt[6:, 1] = PAD   # target 0 has 8 tokens, target 1 has 6
    return model, (src, tgt, (src == PAD).t(), (tgt == PAD).t())
