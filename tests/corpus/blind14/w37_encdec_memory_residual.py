"""Small transformer encoder-decoder for headline generation, written layer by layer."""
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, x, src_pad):
        h = self.ln1(x)
        x = x + self.attn(h, h, h, key_padding_mask=src_pad, need_weights=False)[0]
        return x + self.ff(self.ln2(x))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.cross_attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))
        self.ln1, self.ln2, self.ln3 = nn.LayerNorm(d), nn.LayerNorm(d), nn.LayerNorm(d)

    def forward(self, y, enc_out, causal, src_pad):
        h = self.ln1(y)
        y = y + self.self_attn(h, h, h, attn_mask=causal, need_weights=False)[0]
        h = self.ln2(y)
        y = enc_out + self.cross_attn(h, enc_out, enc_out, key_padding_mask=src_pad, need_weights=False)[0]
        return y + self.ff(self.ln3(y))


class Seq2Seq(nn.Module):
    def __init__(self, vocab=100, d=32, heads=4, layers=2, max_len=32, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.emb = nn.Embedding(vocab, d, padding_idx=pad_id)
        self.pos = nn.Embedding(max_len, d)
        self.encoder = nn.ModuleList(EncoderLayer(d, heads) for _ in range(layers))
        self.decoder = nn.ModuleList(DecoderLayer(d, heads) for _ in range(layers))
        self.enc_norm, self.dec_norm = nn.LayerNorm(d), nn.LayerNorm(d)
        self.out = nn.Linear(d, vocab)

    def embed(self, ids):
        return self.emb(ids) + self.pos(torch.arange(ids.size(1), device=ids.device))

    def forward(self, src_ids, src_pad, tgt_ids):
        x = self.embed(src_ids)
        for layer in self.encoder:
            x = layer(x, src_pad)
        enc_out = self.enc_norm(x)
        T = tgt_ids.size(1)
        causal = torch.ones(T, T, dtype=torch.bool, device=tgt_ids.device).triu(1)
        y = self.embed(tgt_ids)
        for layer in self.decoder:
            y = layer(y, enc_out, causal, src_pad)
        return self.out(self.dec_norm(y))


def build():
    torch.manual_seed(0)
    model = Seq2Seq().eval()
    src_pad = torch.arange(10)[None] >= torch.tensor([10, 6, 8])[:, None]
    src_ids = torch.randint(1, 100, (3, 10)).masked_fill(src_pad, 0)
    tgt_ids = torch.randint(1, 100, (3, 10))
    return model, (src_ids, src_pad, tgt_ids)
