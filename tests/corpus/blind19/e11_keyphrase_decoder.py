"""Keyphrase generation (One2Seq): an encoder reads the title+abstract and a Transformer
decoder emits the concatenated keyphrases separated by <sep>. Attention is written out with
torch.matmul to expose the attention weights for copy scoring."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def split(self, x):
        B, L, _ = x.shape
        return x.view(B, L, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, query, key, value, mask=None):
        B, Lq, D = query.shape
        q, k, v = self.split(self.w_q(query)), self.split(self.w_k(key)), self.split(self.w_v(value))
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.d_k)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        attn = torch.softmax(scores, dim=-1)
        ctx = torch.matmul(attn, v)
        ctx = ctx.contiguous().view(B, Lq, D)
        return self.w_o(ctx), attn


class DecoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.self_attn, self.src_attn = MultiHeadAttention(d, h), MultiHeadAttention(d, h)
        self.norms = nn.ModuleList(nn.LayerNorm(d) for _ in range(3))
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.ReLU(), nn.Linear(4 * d, d))

    def forward(self, x, memory, src_mask, tgt_mask):
        x = self.norms[0](x + self.self_attn(x, x, x, tgt_mask)[0])
        x = self.norms[1](x + self.src_attn(x, memory, memory, src_mask)[0])
        return self.norms[2](x + self.ff(x))


class KeyphraseGenerator(nn.Module):
    def __init__(self, vocab=150, d=32, h=4, layers=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d, padding_idx=0)
        self.pos = nn.Embedding(64, d)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d, h, 4 * d, dropout=0.1, batch_first=True), layers, enable_nested_tensor=False)
        self.decoder = nn.ModuleList(DecoderLayer(d, h) for _ in range(layers))
        self.out = nn.Linear(d, vocab)

    def forward(self, src, tgt):
        src_pad = src.eq(0)
        memory = self.encoder(self.emb(src) + self.pos.weight[: src.size(1)], src_key_padding_mask=src_pad)
        T = tgt.size(1)
        tgt_mask = torch.tril(torch.ones(T, T, device=tgt.device)).unsqueeze(0).unsqueeze(0)
        src_mask = (~src_pad)[:, None, None, :]
        y = self.emb(tgt) + self.pos.weight[:T]
        for layer in self.decoder:
            y = layer(y, memory, src_mask, tgt_mask)
        return self.out(y)


def build():
    torch.manual_seed(0)
    model = KeyphraseGenerator().eval()
    src = torch.randint(1, 150, (2, 20))
    src[1, 15:] = 0
    tgt = torch.randint(1, 150, (2, 12))
    return model, (src, tgt)
