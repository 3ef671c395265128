"""Step-by-step decoding for an encoder-decoder summariser with an int8 cross-attention cache.

Cross-attention K/V depend only on the source, so they are projected once, stored as int8 with
one scale per (sample, head, source token), and dequantised at every step. The self-attention
cache grows by one entry per step. Teacher forcing: the decoder consumes `tgt` one token at a
time and returns the logits of every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def quantize_per_token(x):
    """x: (B, H, S, d) -> int8 values and (B, H, S, 1) scales"""
    scale = x.abs().amax(dim=-1, keepdim=True).clamp(min=1e-6) / 127.0
    return torch.round(x / scale).clamp(-127, 127).to(torch.int8), scale


class DecoderLayer(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h, self.dh = heads, dim // heads
        self.sq, self.skv = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim)
        self.cq, self.ckv = nn.Linear(dim, dim), nn.Linear(dim, 2 * dim)
        self.so, self.co = nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.n1, self.n2, self.n3 = nn.LayerNorm(dim), nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def heads(self, t):
        return t.view(t.size(0), t.size(1), self.h, self.dh).transpose(1, 2)

    def build_cross_cache(self, memory):
        k, v = self.ckv(memory).chunk(2, dim=-1)
        return quantize_per_token(self.heads(k)) + quantize_per_token(self.heads(v))

    def step(self, x, self_cache, cross_cache, src_keep):
        B = x.size(0)
        h = self.n1(x)
        k, v = self.skv(h).chunk(2, dim=-1)
        self_cache.append((self.heads(k), self.heads(v)))
        K = torch.cat([c[0] for c in self_cache], dim=2)
        V = torch.cat([c[1] for c in self_cache], dim=2)
        a = F.scaled_dot_product_attention(self.heads(self.sq(h)), K, V)
        x = x + self.so(a.transpose(1, 2).reshape(B, 1, -1))
        kq, ks, vq, vs = cross_cache
        Kc, Vc = kq.to(x.dtype) * ks, vq.to(x.dtype) * vs
        a = F.scaled_dot_product_attention(self.heads(self.cq(self.n2(x))), Kc, Vc,
                                           attn_mask=src_keep[:, None, None, :])
        x = x + self.co(a.transpose(1, 2).reshape(B, 1, -1))
        return x + self.ff(self.n3(x))


class Summariser(nn.Module):
    def __init__(self, vocab=120, dim=32, heads=4, layers=2, max_len=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.pos = nn.Embedding(max_len, dim)
        enc_layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, layers, enable_nested_tensor=False)
        self.layers = nn.ModuleList([DecoderLayer(dim, heads) for _ in range(layers)])
        self.norm = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, src, tgt):
        src_keep = src.ne(0)
        memory = self.encoder(self.embed(src) + self.pos.weight[: src.size(1)], src_key_padding_mask=~src_keep)
        cross = [layer.build_cross_cache(memory) for layer in self.layers]
        self_caches = [[] for _ in self.layers]
        outs = []
        for t in range(tgt.size(1)):
            x = self.embed(tgt[:, t:t + 1]) + self.pos.weight[t]
            for layer, sc, cc in zip(self.layers, self_caches, cross):
                x = layer.step(x, sc, cc, src_keep)
            outs.append(self.lm_head(self.norm(x)))
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = Summariser().eval()
    src_len = torch.tensor([18, 11, 14])
    src = torch.randint(1, 120, (3, 18)).masked_fill(torch.arange(18)[None] >= src_len[:, None], 0)
    tgt = torch.randint(1, 120, (3, 10))
    return model, (src, tgt)
