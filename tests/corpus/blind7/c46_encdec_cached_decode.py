import torch
import torch.nn as nn
import torch.nn.functional as F


class KVCache:
    def __init__(self):
        self.k = None
        self.v = None

    def update(self, k, v):
        if self.k is not None:
            k = torch.cat([self.k, k], dim=2)
            v = torch.cat([self.v, v], dim=2)
        self.k, self.v = k, v
        return k, v


class SelfAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, cache):
        B, Tq, D = x.shape
        q, k, v = self.qkv(x).view(B, Tq, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        k, v = cache.update(k, v)
        Tk = k.shape[2]
        mask = torch.ones(Tq, Tk, dtype=torch.bool, device=x.device).tril(diagonal=Tk - Tq)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.o(out.transpose(1, 2).reshape(B, Tq, D))


class CrossAttention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.h = heads
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.o = nn.Linear(d, d)

    def forward(self, x, memory, memory_keep):
        B, Tq, D = x.shape
        S = memory.shape[1]
        q = self.q(x).view(B, Tq, self.h, -1).transpose(1, 2)
        k, v = self.kv(memory).view(B, S, 2, self.h, -1).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=memory_keep[:, None, None, :])
        return self.o(out.transpose(1, 2).reshape(B, Tq, D))


class DecoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.n1 = nn.LayerNorm(d)
        self.sa = SelfAttention(d, heads)
        self.n2 = nn.LayerNorm(d)
        self.ca = CrossAttention(d, heads)
        self.n3 = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x, memory, memory_keep, cache):
        x = x + self.sa(self.n1(x), cache)
        x = x + self.ca(self.n2(x), memory, memory_keep)
        return x + self.ff(self.n3(x))


class SpeechTranslator(nn.Module):
    def __init__(self, src_dim=20, d=32, heads=4, vocab=30, n_layers=2, max_len=32, chunk_sizes=(1, 3, 2, 1, 2)):
        super().__init__()
        self.chunk_sizes = chunk_sizes
        self.src_proj = nn.Linear(src_dim, d)
        self.enc = nn.ModuleList([nn.TransformerEncoderLayer(d, heads, 4 * d, dropout=0.0, batch_first=True)])
        self.embed = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(max_len, d)
        self.layers = nn.ModuleList([DecoderLayer(d, heads) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)

    def encode(self, src, src_lens):
        keep = torch.arange(src.shape[1], device=src.device)[None, :] < src_lens[:, None]
        h = self.src_proj(src)
        for layer in self.enc:
            h = layer(h, src_key_padding_mask=~keep)
        return h, keep

    def step(self, tokens, offset, memory, keep, caches):
        pos = torch.arange(offset, offset + tokens.shape[1], device=tokens.device)
        x = self.embed(tokens) + self.pos(pos)
        for layer, cache in zip(self.layers, caches):
            x = layer(x, memory, keep, cache)
        return self.lm_head(self.norm(x))

    def forward(self, src, src_lens, tgt):
        memory, keep = self.encode(src, src_lens)
        caches = [KVCache() for _ in self.layers]
        outs, s = [], 0
        for n in self.chunk_sizes:
            if s >= tgt.shape[1]:
                break
            outs.append(self.step(tgt[:, s:s + n], s, memory, keep, caches))
            s += n
        if s < tgt.shape[1]:
            outs.append(self.step(tgt[:, s:], s, memory, keep, caches))
        return torch.cat(outs, dim=1)


def build():
    torch.manual_seed(0)
    model = SpeechTranslator().eval()
    src = torch.randn(2, 7, 20)
    src_lens = torch.tensor([7, 4])
    tgt = torch.randint(0, 30, (2, 9))
    return model, (src, src_lens, tgt)
